import type { Texture } from 'three'
import type { Quake2LightFlags, ShellSpec } from '../../../core/lighting/quake2Light.js'

/** What an `MD2Crowd` is made with. */
export interface MD2CrowdOptions extends Quake2LightFlags {
  /** Instances it can hold (buffers are sized once). */
  limit: number
  /** `"lambert"` (default): three's lights. `"quake2"`: Quake II's light table per vertex, per instance yaw. */
  lighting?: 'lambert' | 'quake2'
  /** The skin. */
  map?: Texture | null
  /** Quake II lighting: the light at the models' feet (one level or RGB; default 1). */
  shadelight?: number | readonly [number, number, number]
  /** Draw translucent (0–1, default 1). */
  opacity?: number
  /**
   * Quake II power-up shells around every instance (`'red'`, `['red', 'blue']`, an RGB colour), as
   * `<MD2Shell>`; `setShell(i, …)` changes one instance's.
   */
  shell?: ShellSpec | readonly ShellSpec[]
  /** `"blob"`: Quake II's blob shadow under every instance, as `<MD2BlobShadow>`; `setShadow(i, …)` changes one instance's. */
  shadow?: 'blob' | false
  /** World height of the floor blob shadows lie on. Default: under each instance's lowest point in any frame. */
  shadowFloor?: number
  /** The device's `MAX_TEXTURE_SIZE` (`renderer.capabilities.maxTextureSize`); rows of frames wrap below it. */
  maxTextureSize?: number
  /**
   * Where the poses are blended. `"vertex"` (default): in the vertex shader, on every renderer.
   * `"compute"`: on real WebGPU, by a compute pass once a frame into storage the draw (and its shadow-map
   * passes) read, at 32 bytes per MD2 vertex per instance of the limit; elsewhere, or past the device's
   * storage size, the vertex shader blends.
   */
  decode?: 'vertex' | 'compute'
  /**
   * Who works each instance's pose out. `"shader"`: the vertex shader, from the instance's stored row (written only
   * when it is told something): nothing per instance per frame on the CPU. `"cpu"`: the CPU, for the instances in
   * view, every frame (their rows written posed, culled here): each vertex then only decodes. `"auto"` (default):
   * the shader, but where the renderer draws in software (SwiftShader, llvmpipe: every vertex shaded on the CPU,
   * where a pose per vertex costs more than a pose per instance), the CPU. Settable later (`crowd.pose`).
   */
  pose?: 'auto' | 'shader' | 'cpu'
}

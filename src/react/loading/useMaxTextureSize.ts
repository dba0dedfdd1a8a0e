import { useThree } from '@react-three/fiber'

interface AnyRenderer {
  capabilities?: { maxTextureSize?: number }
  backend?: { device?: { limits?: { maxTextureDimension2D?: number } }; gl?: WebGL2RenderingContext }
}

/**
 * The largest texture side the canvas's renderer takes: `WebGLRenderer`'s `MAX_TEXTURE_SIZE`, or on
 * `WebGPURenderer` its device's `maxTextureDimension2D` (WebGPU) or its WebGL2 backend's limit;
 * `fallback` where none can be read.
 */
export function useMaxTextureSize(fallback: number): number {
  return useThree((state) => {
    const renderer = state.gl as unknown as AnyRenderer
    const gl = renderer.backend?.gl
    return (
      renderer.capabilities?.maxTextureSize ??
      renderer.backend?.device?.limits?.maxTextureDimension2D ??
      (gl ? (gl.getParameter(gl.MAX_TEXTURE_SIZE) as number) : undefined) ??
      fallback
    )
  })
}

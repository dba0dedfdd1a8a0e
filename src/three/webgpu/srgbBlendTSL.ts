import {
  ColorManagement,
  FramebufferTexture,
  NearestFilter,
  NormalBlending,
  SRGBTransfer,
  type EventDispatcher,
  type Material,
  type RenderTarget,
} from 'three'
import { Fn, dot, mix, output, screenUV, select, uniform, vec4 } from 'three/tsl'
import { NodeUpdateType, ViewportTextureNode, type Node, type NodeFrame, type Renderer } from 'three/webgpu'
import { curveNumber, display, fromDisplay } from './displayCurveTSL.js'

/**
 * Whether `renderer` draws into the linear target its output pass then tone-maps and encodes for the canvas
 * (or output target): where `WebGLRenderer` would tone-map and encode in each fragment shader, and so blend
 * the values the canvas holds. Into any other target (a post-processing pass, a render target of the app's)
 * both renderers blend linear values.
 */
function blendsAsShown(renderer: Renderer): boolean {
  const target = renderer.getRenderTarget() as (RenderTarget & { isPostProcessingRenderTarget?: boolean }) | null
  return target?.isPostProcessingRenderTarget === true
}

function framebufferCopy(): FramebufferTexture {
  const texture = new FramebufferTexture(1, 1)
  // Read at each pixel's own centre: no filtering, no mipmaps.
  texture.minFilter = NearestFilter
  texture.magFilter = NearestFilter
  texture.generateMipmaps = false
  return texture
}

/** The copies of what is behind, one per target drawn into, shared by every material blending in sRGB. */
const copies = new WeakMap<object, FramebufferTexture>()

/**
 * The nodes every material blending in sRGB shares, made on first use: importing this module builds no
 * node, so that on a three too old for this TSL the entry can warn instead of failing as it loads.
 */
function sharedNodes() {
  if (shared) return shared
  const withoutTarget = framebufferCopy()

  /**
   * What is already drawn behind the fragment, in the target's linear values: the target copied just before
   * each object using it is drawn (not once per render, as three's viewport textures are), so a translucent
   * layer over another (a shell over a translucent body, a model over a blob shadow) sees it. Not copied
   * where the renderer blends linear values anyway (`blendsAsShown`).
   */
  class BackdropNode extends ViewportTextureNode {
    constructor() {
      super(screenUV, null, withoutTarget)
      this.updateBeforeType = NodeUpdateType.OBJECT
    }

    override getTextureForReference(reference: object | null = null): FramebufferTexture {
      if (reference === null) return withoutTarget
      let texture = copies.get(reference)
      if (!texture) {
        const made = (texture = framebufferCopy())
        copies.set(reference, made)
        // Freed with its target (the renderer disposes its frame buffer target with its canvas or output target).
        const target = reference as Partial<EventDispatcher<{ dispose: object }>>
        target.addEventListener?.('dispose', function disposed() {
          target.removeEventListener?.('dispose', disposed)
          copies.delete(reference)
          made.dispose()
        })
      }
      return texture
    }

    override updateBefore(frame: NodeFrame): boolean | undefined {
      if (!blendsAsShown(frame.renderer as Renderer)) return undefined
      return super.updateBefore(frame)
    }
  }

  shared = {
    backdrop: () => new BackdropNode(),
    /** Per draw: the renderer's tone curve (`curveNumber`), or 0 where it blends linear values (`blendsAsShown`). */
    curve: uniform(0, 'int').onObjectUpdate(({ renderer }) =>
      blendsAsShown(renderer as Renderer) ? curveNumber((renderer as Renderer).toneMapping) : 0,
    ),
    /** Per draw: 1 where the canvas holds sRGB-encoded values, 0 where linear ones. */
    encoded: uniform(0, 'int').onObjectUpdate(({ renderer }) =>
      ColorManagement.getTransfer((renderer as Renderer).outputColorSpace) === SRGBTransfer ? 1 : 0,
    ),
  }
  return shared
}
let shared: { backdrop: () => Node<'vec4'>; curve: Node<'int'>; encoded: Node<'int'> } | undefined

/** Below this alpha the layer is as good as invisible: left as it is, not divided by a near-zero alpha. */
const LEAST_ALPHA = 1 / 1024

/**
 * Makes a translucent material (normal blending) blend on `WebGPURenderer` as on `WebGLRenderer` (and in
 * Quake II): over the values the canvas holds, tone-mapped and sRGB-encoded, where `WebGPURenderer` would
 * blend linear values before its output pass. Its `outputNode` reads what is behind (`b`, linear), works out
 * the blend the canvas would hold, `S = a·shown(c) + (1−a)·shown(b)`, and the linear value `T` shown as `S`,
 * and outputs a colour `X` at an alpha `α` such that the fixed-function blend `α·X + (1−α)·b` lands on `T`.
 * Over an opaque backdrop `α` is chosen so that a second layer of the same surface in the same draw, landing
 * over `T` while its copy still shows `b` (a shell's fold over itself), comes near where `WebGLRenderer`
 * puts it too: `1−α` is the slope from `b` to `T` that best gives the two-layer blend, its error in each
 * channel weighted as the canvas shows it. Elsewhere `α = a`, so the canvas's own alpha is as on
 * `WebGLRenderer`. Opaque, otherwise blended, or drawn where both renderers blend linear values, the
 * material outputs as it would. `WebGLRenderer` ignores all of it.
 */
export function blendInSRGBTSL(material: Material): void {
  const slots = material as Material & { outputNode?: Node | null }
  if (slots.outputNode) return
  const { backdrop: makeBackdrop, curve, encoded } = sharedNodes()
  const backdrop = makeBackdrop()
  slots.outputNode = Fn(() => {
    // Read when the material is built: three rebuilds it when these change.
    if (!material.transparent || material.blending !== NormalBlending) return output
    const a = output.a
    const premultiplied = material.premultipliedAlpha
    const colour = premultiplied ? output.rgb.div(a.max(LEAST_ALPHA)) : output.rgb
    const behind = backdrop.toVar()
    const b = behind.rgb
    const on = encoded.equal(1)
    const shownColour = display(colour, curve, on).toVar()
    // The canvas after one layer over b, and after a second over that.
    const shownOnce = mix(display(b, curve, on), shownColour, a).toVar()
    const shownTwice = mix(shownOnce, shownColour, a)
    const once = fromDisplay(shownOnce, curve, on).toVar()
    const twice = fromDisplay(shownTwice, curve, on)
    // How much a linear error in each channel shows, between one layer and two.
    const rise = twice.sub(once)
    const weight = shownTwice.sub(shownOnce).abs().div(rise.abs().max(1e-6))
    const step = once.sub(b)
    const weighted = weight.mul(weight).mul(step)
    const spread = dot(weighted, step)
    const slope = dot(weighted, rise)
      .div(spread.max(1e-20))
      .clamp(0, 1 - LEAST_ALPHA)
    const keep = select(spread.greaterThan(1e-14).and(behind.a.greaterThanEqual(0.999)), slope, a.oneMinus())
    // α·X, what the blend adds to (1−α)·b.
    const added = once.sub(b.mul(keep))
    const alpha = keep.oneMinus()
    const blended = vec4(premultiplied ? added : added.div(alpha), alpha)
    return select(curve.greaterThan(0).and(a.greaterThan(LEAST_ALPHA)), blended, output)
  })()
}

/** three.js's renderers the browser benchmark runs on (no three.js import: the Node side reads this too). */
export const RENDERERS = ['webgl', 'webgpu', 'webgpu-webgl2'] as const
export type RendererKind = (typeof RENDERERS)[number]

export function isRendererKind(value: unknown): value is RendererKind {
  return typeof value === 'string' && (RENDERERS as readonly string[]).includes(value)
}

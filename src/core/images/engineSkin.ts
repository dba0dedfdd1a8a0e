/**
 * The skin sizes an unmodified Quake II loads (its GL renderer, ref_gl): Mod_LoadAliasModel drops a model
 * whose header says a skin taller than 480 (`model … has a skin taller than 480`); LoadPCX refuses a PCX
 * over 640 wide or 480 tall (`Bad pcx file`); GL_FindImage loads .pcx and .tga skins only; GL_Upload8 drops any 8-bit image over 512 × 256 texels
 * (`GL_Upload8: too large`), whatever its shape. What it loads, GL_Upload32 then draws from each side rounded
 * down to a power of two (`gl_round_down 1`, the default) and at most 256 (`maxDrawn`): only such sides are
 * drawn as written.
 */
export const QUAKE2_SKIN_LIMITS = { maxHeight: 480, maxPCXWidth: 640, maxPCXHeight: 480, maxTexels: 512 * 256, maxDrawn: 256 } as const

/**
 * The most pixels convert decodes of an input image (4096 × 4096, 64 MiB as RGBA): checked from the
 * image's header before decoding; a skin is then fitted to the engine, far smaller.
 */
export const SKIN_PIXEL_BUDGET = 4096 * 4096

/** The side GL_Upload32 draws a skin side of `side` texels from: the power of two at or below it, at most 256. */
export function drawnSkinSide(side: number): number {
  let drawn = 1
  while (drawn * 2 <= side && drawn < QUAKE2_SKIN_LIMITS.maxDrawn) drawn *= 2
  return drawn
}

/**
 * The size a skin of an image `width × height` is written at so that Quake II draws it as written: each side
 * the power of two at or above it, at most 256 (the renderer's own rounding, which every such size passes
 * unchanged). Rounding up rather than down keeps every texel the image has, up to what the engine draws: a
 * 14 × 24 image is written at 16 × 32, not drawn from 8 × 16; anything from 129 to 4096 wide is 256 wide.
 */
export function engineSkinSize(width: number, height: number): [number, number] {
  const fit = (side: number) => {
    let size = 1
    while (size < side && size < QUAKE2_SKIN_LIMITS.maxDrawn) size *= 2
    return size
  }
  return [fit(width), fit(height)]
}

/** What keeps a `width × height` skin out of Quake II, or from being drawn as written, each limit worded; empty when it loads. */
export function skinSizeProblems(width: number, height: number, format: 'pcx' | 'tga' | 'png'): string[] {
  const { maxHeight, maxPCXWidth, maxPCXHeight, maxTexels, maxDrawn } = QUAKE2_SKIN_LIMITS
  const problems: string[] = []
  if (height > maxHeight) problems.push(`taller than ${maxHeight} (Mod_LoadAliasModel: "has a skin taller than ${maxHeight}")`)
  if (format === 'pcx') {
    if (width > maxPCXWidth || height > maxPCXHeight)
      problems.push(`a PCX larger than ${maxPCXWidth} × ${maxPCXHeight} (LoadPCX: "Bad pcx file")`)
    if (width * height > maxTexels)
      problems.push(`${width * height} texels, over the ${maxTexels} (512 × 256) an 8-bit skin may have (GL_Upload8: "too large")`)
  }
  if (format === 'png') problems.push('a PNG skin, which Quake II does not load (GL_FindImage reads .pcx and .tga)')
  else if (problems.length === 0 && (drawnSkinSide(width) !== width || drawnSkinSide(height) !== height))
    problems.push(
      `drawn from ${drawnSkinSide(width)} × ${drawnSkinSide(height)} (GL_Upload32 rounds each side down to a power of two, at most ${maxDrawn})`,
    )
  return problems
}

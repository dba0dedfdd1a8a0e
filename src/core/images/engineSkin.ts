/**
 * The skin sizes an unmodified Quake II loads (its GL renderer, ref_gl): Mod_LoadAliasModel drops a model
 * whose header says a skin taller than 480 (`model … has a skin taller than 480`); LoadPCX refuses a PCX
 * over 640 wide or 480 tall (`Bad pcx file`); GL_FindImage loads .pcx and .tga skins only; GL_Upload8 drops any 8-bit image over 512 × 256 texels
 * (`GL_Upload8: too large`), whatever its shape.
 */
export const QUAKE2_SKIN_LIMITS = { maxHeight: 480, maxPCXWidth: 640, maxPCXHeight: 480, maxTexels: 512 * 256 } as const

/**
 * The most pixels convert decodes of an input image (4096 × 4096, 64 MiB as RGBA): checked from the
 * image's header before decoding; a skin is then fitted to the engine, far smaller.
 */
export const SKIN_PIXEL_BUDGET = 4096 * 4096

/** The largest size of the image's shape that Quake II loads as a skin (never larger than the image). */
export function engineSkinSize(width: number, height: number): [number, number] {
  const { maxHeight, maxPCXWidth, maxTexels } = QUAKE2_SKIN_LIMITS
  const scale = Math.min(1, maxHeight / height, maxPCXWidth / width, Math.sqrt(maxTexels / (width * height)))
  let w = Math.max(1, Math.round(width * scale))
  let h = Math.max(1, Math.round(height * scale))
  // Rounding can leave the product a texel over for some shapes.
  while (w * h > maxTexels)
    if (w >= h) w--
    else h--
  return [w, h]
}

/** What keeps a `width × height` skin out of Quake II, each limit worded; empty when it loads. */
export function skinSizeProblems(width: number, height: number, format: 'pcx' | 'tga' | 'png'): string[] {
  const { maxHeight, maxPCXWidth, maxPCXHeight, maxTexels } = QUAKE2_SKIN_LIMITS
  const problems: string[] = []
  if (height > maxHeight) problems.push(`taller than ${maxHeight} (Mod_LoadAliasModel: "has a skin taller than ${maxHeight}")`)
  if (format === 'pcx') {
    if (width > maxPCXWidth || height > maxPCXHeight)
      problems.push(`a PCX larger than ${maxPCXWidth} × ${maxPCXHeight} (LoadPCX: "Bad pcx file")`)
    if (width * height > maxTexels)
      problems.push(`${width * height} texels, over the ${maxTexels} (512 × 256) an 8-bit skin may have (GL_Upload8: "too large")`)
  }
  if (format === 'png') problems.push('a PNG skin, which Quake II does not load (GL_FindImage reads .pcx and .tga)')
  return problems
}

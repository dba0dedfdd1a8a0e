/**
 * An MD2 and its skins checked by the rules an unmodified Quake II (id's GPL source, ref_gl) loads them by,
 * read from the bytes without the library's parser:
 * - Mod_LoadModel: the ident "IDP2"; Mod_LoadAliasModel: version 8, skinheight at most 480 (MAX_LBM_HEIGHT,
 *   "has a skin taller than"), 1 to 2,048 vertices (MAX_VERTS), st, triangles and frames at least 1;
 * - qfiles.h's limits the engine's arrays are sized by: 4,096 triangles, 512 frames, 32 skins, 64-byte skin
 *   names; vertex normal indices below 162 (NUMVERTEXNORMALS); indices inside their arrays;
 * - GL_FindImage: a skin name of 5 or more characters ending .pcx or .tga; LoadPCX: manufacturer 0x0a,
 *   version 5, RLE, 8 bits, at most 640 × 480 ("Bad pcx file"); GL_Upload8: at most 512 × 256 texels;
 *   LoadPCX's loop reads `width` bytes a row whatever bytes_per_line says (`loadPCX` below): a file whose rows
 *   are wider is mis-read, and a run it reads across a row's end writes past the buffer;
 * - Mod_ForName loads an alias model into Hunk_Begin(0x200000), of which Mod_LoadAliasModel Hunk_Alloc's the
 *   file's ofs_end bytes (rounded up to 32): past 2 MiB, "Hunk_Alloc overflow" quits the game.
 * Returns every rule broken (empty when the engine loads it).
 */
export function quake2Refusals(md2: Uint8Array, skinFile: (name: string) => Uint8Array | undefined): string[] {
  const broken: string[] = []
  if (md2.length < 68) return ['shorter than the 68-byte header']
  const view = new DataView(md2.buffer, md2.byteOffset, md2.byteLength)
  const int = (i: number) => view.getInt32(i * 4, true)
  const [ident, version, , skinHeight, frameSize, skins, verts, st, tris, , frames, ofsSkins, ofsST, ofsTris, ofsFrames, , ofsEnd] =
    Array.from({ length: 17 }, (_, i) => int(i))
  if (ident !== 0x32504449) broken.push('ident is not IDP2')
  if (version !== 8) broken.push(`version ${version}, not 8`)
  if (skinHeight! > 480) broken.push(`skin taller than 480 (${skinHeight})`)
  if (!(verts! > 0 && verts! <= 2048)) broken.push(`${verts} vertices (1 to 2048)`)
  if (!(st! > 0)) broken.push('no st vertices')
  if (!(tris! > 0 && tris! <= 4096)) broken.push(`${tris} triangles (1 to 4096)`)
  if (!(frames! > 0 && frames! <= 512)) broken.push(`${frames} frames (1 to 512)`)
  if (!(skins! >= 0 && skins! <= 32)) broken.push(`${skins} skins (at most 32)`)
  if (ofsEnd !== md2.length) broken.push(`ofs_end ${ofsEnd}, file ${md2.length} bytes`)
  if (((ofsEnd! + 31) & ~31) > ALIAS_HUNK) broken.push(`Hunk_Alloc overflow: ofs_end ${ofsEnd} past the ${ALIAS_HUNK}-byte alias hunk`)
  if (broken.length > 0) return broken
  for (let t = 0; t < tris!; t++)
    for (let k = 0; k < 6; k++) {
      const index = view.getInt16(ofsTris! + t * 12 + k * 2, true)
      if (index < 0 || index >= (k < 3 ? verts! : st!)) broken.push(`triangle ${t}: index ${index} out of range`)
    }
  if (ofsST! + st! * 4 > md2.length) broken.push('st past the end')
  for (let f = 0; f < frames!; f++)
    for (let v = 0; v < verts!; v++) {
      const normal = md2[ofsFrames! + f * frameSize! + 40 + v * 4 + 3]!
      if (normal >= 162) broken.push(`frame ${f} vertex ${v}: normal index ${normal}`)
    }
  for (let s = 0; s < skins!; s++) {
    const raw = md2.subarray(ofsSkins! + s * 64, ofsSkins! + s * 64 + 64)
    const end = raw.indexOf(0)
    if (end < 0) {
      broken.push(`skin ${s}: name not terminated within 64 bytes`)
      continue
    }
    const name = new TextDecoder().decode(raw.subarray(0, end))
    if (name.length < 5 || !/\.(pcx|tga)$/.test(name)) {
      broken.push(`skin "${name}": GL_FindImage loads names ending .pcx or .tga`)
      continue
    }
    const file = skinFile(name)
    if (!file) {
      broken.push(`skin "${name}": no such file`)
      continue
    }
    if (name.endsWith('.pcx')) {
      const pcx = new DataView(file.buffer, file.byteOffset, file.byteLength)
      const width = pcx.getUint16(8, true) + 1
      const height = pcx.getUint16(10, true) + 1
      if (file[0] !== 0x0a || file[1] !== 5 || file[2] !== 1 || file[3] !== 8 || width > 640 || height > 480)
        broken.push(`skin "${name}": LoadPCX: Bad pcx file`)
      if (width * height > 512 * 256) broken.push(`skin "${name}": GL_Upload8: too large (${width} × ${height})`)
      broken.push(...loadPCXRefusals(file).map((why) => `skin "${name}": ${why}`))
    }
  }
  return broken
}

/** Mod_ForName's Hunk_Begin(0x200000) for an alias model. */
const ALIAS_HUNK = 0x200000

/**
 * A PCX's pixels as id's LoadPCX reads them: `width` bytes a row, runs taken as they come (a run may go on
 * past the row's end into the next row, and past the last row out of the buffer), bytes_per_line ignored.
 * `overrun` counts the bytes written past the `width × height` buffer.
 */
export function loadPCX(file: Uint8Array): { width: number; height: number; pixels: Uint8Array; overrun: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const width = view.getUint16(8, true) - view.getUint16(4, true) + 1
  const height = view.getUint16(10, true) - view.getUint16(6, true) + 1
  const pixels = new Uint8Array(width * height)
  let overrun = 0
  let raw = 128
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width;) {
      let value = file[raw++] ?? 0
      let run = 1
      if ((value & 0xc0) === 0xc0) {
        run = value & 0x3f
        value = file[raw++] ?? 0
      }
      while (run-- > 0) {
        const at = y * width + x++
        if (at < pixels.length) pixels[at] = value
        else overrun++
      }
    }
  return { width, height, pixels, overrun }
}

/** What id's LoadPCX gets wrong reading this file: rows whose bytes_per_line is not the width, a write past its buffer. */
function loadPCXRefusals(file: Uint8Array): string[] {
  const broken: string[] = []
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const width = view.getUint16(8, true) - view.getUint16(4, true) + 1
  const bytesPerLine = view.getUint16(66, true)
  if (bytesPerLine !== width) broken.push(`LoadPCX reads ${width} bytes a row, the file's rows are ${bytesPerLine} (mis-read)`)
  const { overrun } = loadPCX(file)
  if (overrun > 0) broken.push(`LoadPCX writes ${overrun} bytes past its buffer`)
  return broken
}

/** The side GL_Upload32 draws a skin side from (gl_round_down 1, the default): the power of two at or below it, at most 256. */
export function quake2DrawnSide(side: number): number {
  let drawn = 1
  while (drawn * 2 <= side && drawn < 256) drawn *= 2
  return drawn
}

/**
 * Each skin the model names that ref_gl draws smaller than written (GL_Upload32 rounds each side down to a power
 * of two, at most 256: 362 × 362 is drawn from 256 × 256, 14 × 24 from 8 × 16); empty when every skin is drawn as
 * written. Reads .pcx and .tga sizes from their headers.
 */
export function quake2SkinsDrawnSmaller(md2: Uint8Array, skinFile: (name: string) => Uint8Array | undefined): string[] {
  const view = new DataView(md2.buffer, md2.byteOffset, md2.byteLength)
  const skins = view.getInt32(20, true)
  const ofsSkins = view.getInt32(44, true)
  const smaller: string[] = []
  for (let s = 0; s < skins; s++) {
    const raw = md2.subarray(ofsSkins + s * 64, ofsSkins + s * 64 + 64)
    const name = new TextDecoder().decode(raw.subarray(0, raw.indexOf(0) < 0 ? 64 : raw.indexOf(0)))
    const file = skinFile(name)
    if (!file) continue
    const size = imageSize(name, file)
    const drawn = size.map(quake2DrawnSide)
    if (drawn[0] !== size[0] || drawn[1] !== size[1])
      smaller.push(`skin "${name}": ${size[0]} × ${size[1]} drawn from ${drawn[0]} × ${drawn[1]}`)
  }
  return smaller
}

function imageSize(name: string, file: Uint8Array): [number, number] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  return name.endsWith('.tga')
    ? [view.getUint16(12, true), view.getUint16(14, true)]
    : [view.getUint16(8, true) - view.getUint16(4, true) + 1, view.getUint16(10, true) - view.getUint16(6, true) + 1]
}

/**
 * A player's folder (`players/NAME/`, its files by name) checked as CL_LoadClientinfo("NAME/SKIN") loads it:
 * tris.md2 and weapon.md2 (the view weapon others see), each loading by `quake2Refusals` with its skins looked up
 * by game path; and a skin SKIN.pcx with its icon SKIN_i.pcx beside it (the Player Setup menu lists a skin only
 * with its icon), both loading by LoadPCX. Without any of them the client draws male/grunt instead, for everyone.
 * Names are matched without case, as in a pak. Returns every rule broken (empty when the client loads it).
 */
export function quake2ClientRefusals(folder: string, files: Readonly<Record<string, Uint8Array>>): string[] {
  const byName = new Map(Object.entries(files).map(([name, data]) => [name.toLowerCase(), data]))
  const prefix = `${folder.replace(/\/+$/, '')}/`.toLowerCase()
  const lookup = (gamePath: string) =>
    gamePath.toLowerCase().startsWith(prefix) ? byName.get(gamePath.toLowerCase().slice(prefix.length)) : undefined
  const broken: string[] = []
  for (const model of ['tris.md2', 'weapon.md2']) {
    const data = byName.get(model)
    if (!data) broken.push(`no ${model}`)
    else broken.push(...quake2Refusals(data, lookup).map((why) => `${model}: ${why}`))
  }
  const skins = [...byName.keys()].filter((name) => name.endsWith('_i.pcx') && byName.has(name.replace(/_i\.pcx$/, '.pcx')))
  if (skins.length === 0) broken.push('no skin NAME.pcx with its icon NAME_i.pcx beside it')
  for (const icon of skins)
    for (const name of [icon.replace(/_i\.pcx$/, '.pcx'), icon]) {
      const file = byName.get(name)!
      if (file[0] !== 0x0a || file[1] !== 5 || file[2] !== 1 || file[3] !== 8) broken.push(`${name}: LoadPCX: Bad pcx file`)
      else broken.push(...loadPCXRefusals(file).map((why) => `${name}: ${why}`))
    }
  return broken
}

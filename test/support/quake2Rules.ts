/**
 * An MD2 and its skins checked by the rules an unmodified Quake II (id's GPL source, ref_gl) loads them by,
 * read from the bytes without the library's parser:
 * - Mod_LoadModel: the ident "IDP2"; Mod_LoadAliasModel: version 8, skinheight at most 480 (MAX_LBM_HEIGHT,
 *   "has a skin taller than"), 1 to 2,048 vertices (MAX_VERTS), st, triangles and frames at least 1;
 * - qfiles.h's limits the engine's arrays are sized by: 4,096 triangles, 512 frames, 32 skins, 64-byte skin
 *   names; vertex normal indices below 162 (NUMVERTEXNORMALS); indices inside their arrays;
 * - GL_FindImage: a skin name of 5 or more characters ending .pcx or .tga; LoadPCX: manufacturer 0x0a,
 *   version 5, RLE, 8 bits, at most 640 × 480 ("Bad pcx file"); GL_Upload8: at most 512 × 256 texels.
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
    }
  }
  return broken
}

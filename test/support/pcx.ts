export interface PCXSpec {
  width: number
  height: number
  planes?: number
  bitsPerPixel?: number
  bytesPerLine?: number
  encoding?: number
  xmin?: number
  ymin?: number
  /** The encoded scanline stream, exactly as it goes in the file. */
  body: ArrayLike<number>
  /** 768 bytes; added after the body (with a 0x0C marker unless `marker` is false). */
  palette?: ArrayLike<number>
  marker?: boolean
}

/** Writes a PCX file byte by byte. */
export function makePCX(spec: PCXSpec): Uint8Array {
  const header = new Uint8Array(128)
  const view = new DataView(header.buffer)
  const xmin = spec.xmin ?? 0
  const ymin = spec.ymin ?? 0
  header[0] = 0x0a
  header[1] = 5
  header[2] = spec.encoding ?? 1
  header[3] = spec.bitsPerPixel ?? 8
  view.setUint16(4, xmin, true)
  view.setUint16(6, ymin, true)
  view.setUint16(8, xmin + spec.width - 1, true)
  view.setUint16(10, ymin + spec.height - 1, true)
  header[65] = spec.planes ?? 1
  view.setUint16(66, spec.bytesPerLine ?? spec.width, true)
  const tail = spec.palette === undefined ? [] : [...(spec.marker === false ? [] : [0x0c]), ...Array.from(spec.palette)]
  const out = new Uint8Array(128 + spec.body.length + tail.length)
  out.set(header)
  out.set(Array.from(spec.body), 128)
  out.set(tail, 128 + spec.body.length)
  return out
}

/** PCX run-length encoding of a scanline stream: runs of up to 63, single bytes below 0xC0 as they are. */
export function encodeRLE(raw: ArrayLike<number>): number[] {
  const body: number[] = []
  for (let i = 0; i < raw.length;) {
    let run = 1
    while (i + run < raw.length && raw[i + run] === raw[i] && run < 63) run++
    if (run > 1 || raw[i]! >= 0xc0) body.push(0xc0 | run, raw[i]!)
    else body.push(raw[i]!)
    i += run
  }
  return body
}

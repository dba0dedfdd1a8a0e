import { MD2Error } from './MD2Error.js'

/** Typed-array views read host byte order; MD2 is little-endian, so views are only taken on such hosts. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1

type LittleEndianArray = Int16Array | Uint16Array | Int32Array

interface LittleEndianArrayKind<T extends LittleEndianArray> {
  new (length: number): T
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T
  readonly BYTES_PER_ELEMENT: number
}

/**
 * `count` little-endian numbers at `offset` of `bytes`: a zero-copy view when the host is
 * little-endian and the offset aligned, else a copy read through a DataView. The caller has checked
 * that the range lies inside `bytes`.
 */
export function readLittleEndian<T extends LittleEndianArray>(
  bytes: Uint8Array,
  offset: number,
  count: number,
  Kind: LittleEndianArrayKind<T>,
): T {
  const size = Kind.BYTES_PER_ELEMENT
  const start = bytes.byteOffset + offset
  if (LITTLE_ENDIAN_HOST && start % size === 0) return new Kind(bytes.buffer, start, count)
  const out = new Kind(count)
  const view = new DataView(bytes.buffer, start, count * size)
  const read = size === 4 ? view.getInt32 : out instanceof Uint16Array ? view.getUint16 : view.getInt16
  for (let i = 0; i < count; i++) out[i] = read.call(view, i * size, true)
  return out
}

/** Accepts what the public readers accept, as a Uint8Array view on the same memory (no copy). */
export function toBytes(data: ArrayBuffer | Uint8Array, file: string | undefined): Uint8Array {
  if (data instanceof Uint8Array) return data
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  if (ArrayBuffer.isView(data)) {
    const view = data as ArrayBufferView
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
  }
  throw new MD2Error('BAD_ARGUMENT', `expected an ArrayBuffer or Uint8Array, got ${describe(data)}`, { file })
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'an object'
  return typeof value
}

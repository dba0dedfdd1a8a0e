import { MD2Error } from './errors'

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

import fc from 'fast-check'
import { expect } from 'vitest'
import { MD2Error } from '../../src/core/MD2Error'
import type { DecodedImage } from '../../src/core/images/decodedImage'

/**
 * Damages real images (byte edits, half of them in the first `headerSize` bytes; a third also cut
 * short) 400 times with a fixed seed and checks each decodes to a well-formed image or is refused
 * with `MD2Error` `BAD_IMAGE`; both outcomes must happen often, or the fuzz exercises nothing.
 */
export function fuzzImageDecoder(
  format: string,
  sources: Record<string, Uint8Array>,
  { headerSize, maxEdits, seed }: { headerSize: number; maxEdits: number; seed: number },
  decode: (bytes: Uint8Array, flag: boolean) => DecodedImage,
): void {
  const mutation = fc.record({
    source: fc.constantFrom(...Object.keys(sources)),
    edits: fc.array(fc.tuple(fc.oneof(fc.nat(headerSize - 1), fc.nat()), fc.nat(255)), { maxLength: maxEdits }),
    cut: fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 1 }),
    // A decoder option to vary (TGA's ignoreAlpha), for decoders that have one.
    flag: fc.boolean(),
  })
  const outcomes = { decoded: 0, refused: 0 }
  const property = fc.property(mutation, ({ source, edits, cut, flag }) => {
    let bytes = sources[source]!.slice()
    for (const [at, value] of edits) bytes[at % bytes.length] = value
    if (cut !== null) bytes = bytes.subarray(0, Math.floor(bytes.length * cut))
    try {
      const image = decode(bytes, flag)
      if (image.data.length !== image.width * image.height * 4 || image.width < 1 || image.height < 1) return false
      outcomes.decoded++
    } catch (error) {
      if (!(error instanceof MD2Error) || error.code !== 'BAD_IMAGE') throw error
      outcomes.refused++
    }
    return true
  })
  try {
    fc.assert(property, { seed, numRuns: 400 })
  } catch (error) {
    throw new Error(`${format} fuzz failed (seed ${seed}): ${(error as Error).message}`, { cause: error })
  }
  expect(outcomes.decoded).toBeGreaterThan(40)
  expect(outcomes.refused).toBeGreaterThan(40)
}

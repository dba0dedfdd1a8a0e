/**
 * Fuzzing the skin decoders (issue 6): damaged PCX and TGA files decode to a whole RGBA image or are refused
 * with BAD_IMAGE, quickly. Seeds, `FUZZ_SEED`, `FUZZ_RUNS` and recipes: test/support/fuzz-checks.ts.
 */
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { checkImage, fuzz, logFuzzStats } from '../support/fuzz-checks'
import { PCX_SEEDS, TGA_SEEDS, checkImageCase, imageCases, imageRecipe } from '../support/fuzz-image-inputs'

afterAll(logFuzzStats)

describe('skin decoder fuzzing', () => {
  it('every seed image decodes unmodified', () => {
    for (const seed of [...PCX_SEEDS, ...TGA_SEEDS]) expect(checkImage(seed.kind, seed.bytes, seed.name)).toBeUndefined()
  })

  fuzz(
    `decodePCX: damaged real and synthetic PCX files (${PCX_SEEDS.length} seeds)`,
    800,
    imageCases(PCX_SEEDS, 128),
    checkImageCase,
    imageRecipe,
  )

  fuzz(
    `decodeTGA: damaged TGA files of every supported type (${TGA_SEEDS.length} seeds)`,
    800,
    imageCases(TGA_SEEDS, 18),
    checkImageCase,
    imageRecipe,
  )

  fuzz(
    'decodeTGA and decodePCX: random headers on random bytes',
    600,
    fc.record({ kind: fc.constantFrom('pcx' as const, 'tga' as const), bytes: fc.uint8Array({ maxLength: 2048 }), magic: fc.boolean() }),
    ({ kind, bytes, magic }) => {
      const copy = bytes.slice()
      if (magic && kind === 'pcx' && copy.length > 4) copy.set([0x0a, 5, 1, 8])
      checkImage(kind, copy, `random ${kind} ${bytes.length} bytes`)
    },
  )
})

/**
 * Fuzzing parseMD2 (issue 6): damaged real files must either parse into a model that is entirely usable or
 * be refused with an `MD2Error`; nothing else, and quickly. Seeds, `FUZZ_SEED`, `FUZZ_RUNS` and recipes:
 * test/support/fuzz-checks.ts.
 */
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { checkMD2, fuzz, logFuzzStats, type Op } from '../support/fuzz-checks'
import {
  MD2_FILES,
  byteOps,
  checkMD2Case,
  fieldOp,
  md2Recipe,
  onMD2,
  positionIn,
  structureOps,
  syntheticMD2,
} from '../support/fuzz-md2-inputs'

afterAll(logFuzzStats)

describe(`parseMD2 fuzzing over ${MD2_FILES.length} real files`, () => {
  it('every real file parses and passes the checks unmodified', () => {
    for (const info of MD2_FILES) expect(checkMD2(info.bytes, info.path)).toBeUndefined()
  })

  fuzz(
    'random bytes anywhere',
    300,
    onMD2((info) => byteOps(fc.integer({ min: 0, max: info.length - 1 }), 16)),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'random bytes in the header',
    1000,
    onMD2(() => byteOps(fc.integer({ min: 0, max: 67 }), 8)),
    checkMD2Case,
    md2Recipe,
  )

  fuzz('bytes, shorts, ints and floats where the structure is', 1000, onMD2(structureOps), checkMD2Case, md2Recipe)

  fuzz(
    'truncations',
    400,
    onMD2((info) =>
      fc
        .oneof(fc.constantFrom(...info.boundaries), fc.integer({ min: 0, max: info.length - 1 }))
        .map((length): Op[] => [{ op: 'truncate', length }]),
    ),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'extreme header values (0, -1, ±2^31, file length ± k, other fields ± k)',
    1000,
    onMD2((info) => fc.array(fieldOp(info), { minLength: 1, maxLength: 4 })),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'shuffled and swapped offsets and counts',
    600,
    onMD2((info) =>
      fc.oneof(
        // Offsets (11..16) take each other's values.
        fc.shuffledSubarray([11, 12, 13, 14, 15, 16], { minLength: 2 }).map((fields): Op[] => [{ op: 'rotate', fields }]),
        // Any two fields from skin size to offsets swap, possibly with one more extreme value.
        fc
          .tuple(
            fc.shuffledSubarray([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], { minLength: 2, maxLength: 3 }),
            fc.option(fieldOp(info), { nil: undefined }),
          )
          .map(([fields, extra]): Op[] => (extra ? [{ op: 'rotate', fields }, extra] : [{ op: 'rotate', fields }])),
      ),
    ),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'bytes inserted or removed (everything after shifts)',
    300,
    onMD2((info) =>
      fc.array(
        fc.record({
          op: fc.constant('splice' as const),
          at: fc.oneof(positionIn(info.hotspots), fc.integer({ min: 0, max: info.length })),
          remove: fc.integer({ min: 0, max: 64 }),
          insert: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    checkMD2Case,
    md2Recipe,
  )

  fuzz('small synthetic files with a sane-looking header and random sections', 1500, syntheticMD2(), (value) =>
    checkMD2(value.bytes, value.what),
  )
})

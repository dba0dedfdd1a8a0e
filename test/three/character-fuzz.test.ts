/**
 * Random call sequences on MD2Character and MD2CharacterComplex (issue 43), as the parser is fuzzed: loads
 * (of real models and PCX skins from assets/, some of them missing), animations by any value, skins and
 * weapons by any number, rates and deltas of any number (NaN, negative, infinite), wireframe, controls,
 * shareParts, dispose, and more calls after dispose, with loads left to run between calls or not. After
 * every call: nothing thrown but an `MD2Error`, `onLoadError` given only `MD2Error`s, no NaN in a position
 * buffer or the root, one mesh under `root` per part, a load counter never below 0; after every sequence the
 * load settles (no hang). Deterministic (fixed seed; `FUZZ_SEED`, `FUZZ_RUNS` as test/core/fuzz-fixtures.test.ts).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { isMD2Error, MD2Error } from '../../src/core/MD2Error'
import { MD2Character } from '../../src/three/character/MD2Character'
import { MD2CharacterComplex } from '../../src/three/character/MD2CharacterComplex'
import type { MD2CharacterConfig } from '../../src/three/character/MD2CharacterParts'
import { fuzzSeed, FUZZ_RUN_FACTOR } from '../support/fuzz'
import { HOST, serveAssets } from '../support/serve'

const SEED = fuzzSeed(0x6d6433)
const RUNS = Math.round(80 * FUZZ_RUN_FACTOR)

const BASE = `${HOST}/a/quake2/ratamahatta/`
const GOOD: MD2CharacterConfig = {
  baseUrl: BASE,
  body: 'tris.md2',
  skins: ['../Ratamahatta.pcx', '../ctf_b.pcx'],
  weapons: [['weapon.MD2', '../weapon.pcx']],
}
/** Loads that work, and loads with a missing model or skin (onLoadError, or the checkerboard). */
const CONFIGS: MD2CharacterConfig[] = [
  GOOD,
  { ...GOOD, animations: { move: 'run', idle: 'stand', jump: 'nope', attack: 'attack' }, walkSpeed: 300, crouchSpeed: 100 },
  { ...GOOD, body: 'missing.md2' },
  { ...GOOD, skins: ['../nothing.pcx'], weapons: [] },
  {
    ...GOOD,
    weapons: [
      ['nothing.md2', '../weapon.pcx'],
      ['weapon.MD2', '../weapon.pcx'],
    ],
  },
]

const anyNumber = fc.oneof(
  fc.integer({ min: -3, max: 4 }),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0.5, 1e308, -1e-300, 2 ** 31),
  fc.double(),
)
const anyValue = fc.oneof(
  anyNumber,
  fc.constantFrom(undefined, null, '', 'run', 'RUN', 'stand', 'death', 'nope', {}, [] as unknown),
  fc.string(),
)
const controls = fc.record({
  moveForward: fc.boolean(),
  moveBackward: fc.boolean(),
  moveLeft: fc.boolean(),
  moveRight: fc.boolean(),
  crouch: fc.boolean(),
  jump: fc.boolean(),
  attack: fc.boolean(),
})

type Call =
  | { call: 'loadParts'; config: number }
  | { call: 'setAnimation' | 'setWireframe'; value: unknown }
  | { call: 'setSkin' | 'setWeapon' | 'setPlaybackRate' | 'update'; value: number }
  | { call: 'controls'; value: Record<string, boolean> | null }
  | { call: 'shareParts'; from: 'loaded' | 'self' | 'fresh' | 'null' | 'undefined' }
  | { call: 'dispose' }
  | { call: 'wait'; ms: number }
  /** Waits for the load running to end (complete, fail or time out). */
  | { call: 'settle' }

const callArb: fc.Arbitrary<Call> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ call: fc.constant('loadParts' as const), config: fc.nat({ max: CONFIGS.length - 1 }) }) },
  { weight: 3, arbitrary: fc.record({ call: fc.constant('setAnimation' as const), value: anyValue }) },
  { weight: 1, arbitrary: fc.record({ call: fc.constant('setWireframe' as const), value: anyValue }) },
  { weight: 2, arbitrary: fc.record({ call: fc.constantFrom('setSkin' as const, 'setWeapon' as const), value: anyNumber }) },
  { weight: 2, arbitrary: fc.record({ call: fc.constant('setPlaybackRate' as const), value: anyNumber }) },
  {
    weight: 4,
    arbitrary: fc.record({ call: fc.constant('update' as const), value: fc.oneof(anyNumber, fc.constantFrom(1 / 60, 0.1, 0.5)) }),
  },
  { weight: 1, arbitrary: fc.record({ call: fc.constant('controls' as const), value: fc.option(controls) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      call: fc.constant('shareParts' as const),
      from: fc.constantFrom('loaded', 'self', 'fresh', 'null', 'undefined'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ call: 'dispose' as const }) },
  { weight: 2, arbitrary: fc.record({ call: fc.constant('wait' as const), ms: fc.constantFrom(0, 1, 20) }) },
  { weight: 2, arbitrary: fc.constant({ call: 'settle' as const }) },
)

/** What went wrong in a sequence, beyond a failed expectation. */
interface Watch {
  errors: unknown[]
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let sharedOriginal: MD2CharacterComplex
const warn = vi.spyOn(console, 'warn')
const error = vi.spyOn(console, 'error')
beforeAll(async () => {
  warn.mockImplementation(() => {})
  error.mockImplementation(() => {})
  serveAssets()
  sharedOriginal = new MD2CharacterComplex()
  await new Promise<void>((resolve, reject) => {
    sharedOriginal.onLoadComplete = resolve
    sharedOriginal.onLoadError = reject
    sharedOriginal.loadParts(CONFIGS[1]!)
  })
})
afterAll(() => vi.restoreAllMocks())

async function run(character: MD2Character | MD2CharacterComplex, call: Call, watch: Watch): Promise<void> {
  const c = character as MD2CharacterComplex
  switch (call.call) {
    case 'loadParts':
      return c.loadParts(CONFIGS[call.config]!)
    case 'setAnimation':
      return c.setAnimation(call.value as string)
    case 'setWireframe':
      return c.setWireframe(call.value as boolean)
    case 'setSkin':
    case 'setWeapon':
    case 'setPlaybackRate':
    case 'update':
      return c[call.call](call.value)
    case 'controls':
      if (character instanceof MD2CharacterComplex) character.controls = call.value
      return
    case 'shareParts': {
      if (!(character instanceof MD2CharacterComplex)) return
      const from = { loaded: sharedOriginal, self: character, fresh: new MD2CharacterComplex(), null: null, undefined }[call.from]
      return character.shareParts(from as MD2CharacterComplex)
    }
    case 'dispose':
      return c.dispose()
    case 'wait':
      await sleep(call.ms)
      return
    case 'settle':
      await settle(character)
      return
    default:
      watch.errors.push(new Error(`unknown call ${fc.stringify(call)}`))
  }
}

/** Waits until no load is running (at the latest its loadTimeout ends it); false if one still runs after 5 s. */
async function settle(character: MD2Character | MD2CharacterComplex): Promise<boolean> {
  const started = performance.now()
  while (character.loadCounter > 0 && performance.now() - started < 5000) await sleep(2)
  return character.loadCounter === 0
}

/** The invariants after any call. */
function check(character: MD2Character | MD2CharacterComplex, after: Call): void {
  const where = fc.stringify(after)
  expect(character.loadCounter, where).toBeGreaterThanOrEqual(0)
  expect(character.root.children.length, where).toBe(character.meshes.length)
  expect(new Set(character.root.children).size, where).toBe(character.root.children.length)
  for (const mesh of character.meshes) {
    const array = mesh.geometry.getAttribute('position').array
    for (let i = 0; i < array.length; i++) if (!Number.isFinite(array[i])) expect.fail(`${where}: position ${i} is ${array[i]}`)
  }
  const { position, rotation } = character.root
  expect([position.x, position.y, position.z, rotation.y].every(Number.isFinite), where).toBe(true)
}

describe.each([
  { name: 'MD2Character', make: () => new MD2Character({ loadTimeout: 3000 }) },
  { name: 'MD2CharacterComplex', make: () => new MD2CharacterComplex({ loadTimeout: 3000 }) },
])('$name: random call sequences', ({ name, make }) => {
  it(`end in coded errors or warnings only, keep every buffer finite, and settle (${RUNS} runs)`, { timeout: 60_000 }, async () => {
    let calls = 0
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.option(controls, { freq: 4 }),
        fc.array(callArb, { minLength: 1, maxLength: 25 }),
        async (loaded, start, sequence) => {
          const character = make()
          // Most sequences start with the controls set, so that the movement model runs from the first update.
          if (character instanceof MD2CharacterComplex) character.controls = start
          // Half the sequences start from a loaded character, so that calls meet the parts and not only a load.
          if (loaded) {
            character.loadParts(CONFIGS[1]!)
            await settle(character)
          }
          const watch: Watch = { errors: [] }
          character.onLoadError = (loadError) => {
            if (!isMD2Error(loadError)) watch.errors.push(loadError)
          }
          for (const call of sequence) {
            calls++
            try {
              await run(character, call, watch)
            } catch (thrown) {
              // The only errors a call may throw are coded ones (a config is always well-formed here, so none).
              if (!(thrown instanceof MD2Error)) throw thrown
            }
            check(character, call)
          }
          // No hang: whatever was loading settles (at the latest at loadTimeout).
          expect(await settle(character), 'a load that never settled').toBe(true)
          check(character, { call: 'wait', ms: 0 })
          expect(watch.errors).toEqual([])
          character.dispose()
          expect(character.root.children).toHaveLength(0)
        },
      ),
      { seed: SEED ^ (name.length * 7919), numRuns: RUNS, endOnFailure: true },
    )
    // Nothing reached console.error: every failure was an MD2Error given to onLoadError, or a warning.
    expect(error).not.toHaveBeenCalled()
    expect(calls).toBeGreaterThan(RUNS * 5)
  })
})

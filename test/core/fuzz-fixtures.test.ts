import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { MD2ErrorCode } from '../../src/core/MD2Error'
import { readAsset } from '../support/assets'
import { applyOps, checkImage, checkMD2, logFuzzStats, type Kind, type Op } from '../support/fuzz-checks'
import { imageSeeds } from '../support/fuzz-image-inputs'

const FIXTURES_DIR = join(import.meta.dirname, 'fixtures/fuzz')

afterAll(logFuzzStats)

/**
 * test/core/fixtures/fuzz/ holds what fuzzing found: `*.json` recipes (`kind`, `base` asset or synthetic
 * seed name, `ops`, optional `expect`: "ok" or an error code, optional `note`) and raw `*.md2`,
 * `*.pcx`, `*.tga` files (`name.CODE.md2` expects that code). Each must keep passing the
 * properties, and match its expected outcome.
 */
interface Recipe {
  kind: Kind
  base: string
  ops: Op[]
  expect?: 'ok' | MD2ErrorCode
  note?: string
}

const fixtures = readdirSync(FIXTURES_DIR)
  .filter((name) => /\.(json|md2|pcx|tga)$/i.test(name))
  .sort()

describe('fuzz fixtures (found cases)', () => {
  it('there are fixtures to replay', () => {
    expect(fixtures.length).toBeGreaterThan(0)
  })

  it.each(fixtures)('%s', (name) => {
    const path = join(FIXTURES_DIR, name)
    if (name.endsWith('.json')) {
      const recipe = JSON.parse(readFileSync(path, 'utf8')) as Recipe
      const base = recipe.kind === 'md2' ? readAsset(recipe.base) : (imageSeeds.get(recipe.base)?.bytes ?? readAsset(recipe.base))
      const bytes = applyOps(base, recipe.ops)
      const code = recipe.kind === 'md2' ? checkMD2(bytes, name) : checkImage(recipe.kind, bytes, name)
      if (recipe.expect !== undefined) expect(code ?? 'ok').toBe(recipe.expect)
      return
    }
    const buffer = readFileSync(path)
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    const parts = name.split('.')
    const kind = parts[parts.length - 1]!.toLowerCase() as Kind
    const code = kind === 'md2' ? checkMD2(bytes, name) : checkImage(kind, bytes, name)
    // `name.CODE.md2` or `name.ok.md2` states the expected outcome.
    const expected = parts.length > 2 ? parts[parts.length - 2] : undefined
    if (expected !== undefined) expect(code ?? 'ok').toBe(expected)
  })
})

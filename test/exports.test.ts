import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')

/** The names a module exports, read from its `export { … } from` and `export type { … } from` lines. */
function exportedNames(file: string): string[] {
  const source = readFileSync(resolve(ROOT, file), 'utf8')
  const names: string[] = []
  for (const match of source.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type /, '')
        .split(/\s+as\s+/)
        .at(-1)!
        .trim()
      if (name) names.push(name)
    }
  }
  return names
}

/** The names the export list (docs/entry-points.md) gives for an entry point (backticked, after its heading bullet). */
function readmeList(entry: string): string[] {
  const page = readFileSync(resolve(ROOT, 'docs/entry-points.md'), 'utf8')
  const section = page.slice(page.indexOf('## Export lists'))
  const start = section.indexOf(`- \`${entry}\``)
  const rest = section.slice(start + 2)
  const end = rest.search(/\n(- |\n)/)
  const item = rest.slice(0, end === -1 ? undefined : end)
  return [...item.matchAll(/`([A-Za-z0-9_]+)`/g)].map((m) => m[1]!)
}

describe('public API', () => {
  const core = exportedNames('src/core/index.ts')
  const three = exportedNames('src/three/index.ts')
  const main = exportedNames('src/index.ts')

  it('the core exports at most 40 names, each once, as docs/entry-points.md lists them', () => {
    expect(core.length).toBeLessThanOrEqual(40)
    expect(new Set(core).size).toBe(core.length)
    expect(readmeList('react-three-md2/core').sort()).toEqual([...core].sort())
  })

  it('the three.js entry adds its names to the core without reusing one, as docs/entry-points.md lists them', () => {
    expect(three.filter((name) => core.includes(name))).toEqual([])
    expect(new Set(three).size).toBe(three.length)
    expect(readmeList('react-three-md2/three').sort()).toEqual([...three].sort())
  })

  it('the main entry adds its names to the three.js entry without reusing one, as docs/entry-points.md lists them', () => {
    expect(main.filter((name) => core.includes(name) || three.includes(name))).toEqual([])
    expect(new Set(main).size).toBe(main.length)
    expect(readmeList('react-three-md2').sort()).toEqual([...main].sort())
  })

  it('what the core module exports at run time is the list (types aside)', async () => {
    const runtime = Object.keys(await import('../src/core/index'))
    expect(runtime.every((name) => core.includes(name))).toBe(true)
  })
})

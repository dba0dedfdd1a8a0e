import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import pinned from './public-names.json'

/**
 * The source layout: layers (core → three → react) with folders by concern inside them, imports that
 * only go down, and public entries whose names do not move when files do.
 */
const ROOT = resolve(import.meta.dirname, '..')
const SRC = join(ROOT, 'src')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}
const sourceFiles = walk(SRC).filter((file) => /\.tsx?$/.test(file))
const rel = (file: string) => relative(ROOT, file).split('\\').join('/')
/** Module specifiers of static imports and re-exports, side-effect imports and dynamic imports. */
const importsOf = (source: string) =>
  [
    ...source.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!)

describe('public entries', () => {
  const entries = {
    'react-three-md2': 'src/index.ts',
    'react-three-md2/core': 'src/core/index.ts',
    'react-three-md2/internal': 'src/core/internal.ts',
    'react-three-md2/three': 'src/three/index.ts',
    'react-three-md2/webgpu': 'src/three/webgpu/index.ts',
    'react-three-md2/rapier': 'src/react/rapier/index.ts',
  }

  it('export exactly the pinned names (values and types), wherever the files behind them live', () => {
    const program = ts.createProgram(
      Object.values(entries).map((file) => join(ROOT, file)),
      {
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        jsx: ts.JsxEmit.ReactJSX,
        skipLibCheck: true,
        noEmit: true,
        types: [],
      },
    )
    const checker = program.getTypeChecker()
    const actual: Record<string, string[]> = {}
    for (const [entry, file] of Object.entries(entries)) {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(join(ROOT, file))!)!
      actual[entry] = checker
        .getExportsOfModule(symbol)
        .map((s) => s.getName())
        .sort()
    }
    expect(actual).toEqual(pinned)
  })
})

describe('source layout', () => {
  it('no folder under src/ holds more than 15 source files', () => {
    const counts = new Map<string, number>()
    for (const file of sourceFiles) {
      const dir = rel(join(file, '..'))
      counts.set(dir, (counts.get(dir) ?? 0) + 1)
    }
    const crowded = [...counts].filter(([, n]) => n > 15)
    expect(crowded).toEqual([])
    expect(counts.size).toBeGreaterThan(8)
  })

  it('every folder under src/ says what lives there (a README.md)', () => {
    const dirs = new Set(sourceFiles.map((file) => join(file, '..')))
    const missing = [...dirs].filter((dir) => !readdirSync(dir).includes('README.md')).map(rel)
    expect(missing).toEqual([])
  })

  it('relative imports in src/ name the .js file, as node16/nodenext resolution needs in the emitted types', () => {
    const bare = sourceFiles.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.') && !spec.endsWith('.js'))
        .map((spec) => `${rel(file)}: ${spec}`),
    )
    expect(bare).toEqual([])
  })

  // fflate (zip), fast-png (PNG) and jpeg-js (JPEG) are plain JavaScript that runs in Node, browsers and workers alike.
  const PORTABLE_DEPENDENCIES = ['fflate', 'fast-png', 'jpeg-js']
  const coreFiles = sourceFiles.filter((file) => rel(file).startsWith('src/core/'))

  it.each(coreFiles.map(rel))('%s imports only the core and portable code, and no DOM API', (file) => {
    const source = readFileSync(join(ROOT, file), 'utf8')
    for (const spec of importsOf(source)) {
      if (PORTABLE_DEPENDENCIES.includes(spec)) continue
      expect(spec).toMatch(/^\.\.?\//)
      expect(rel(resolve(ROOT, file, '..', spec))).toMatch(/^src\/core\//)
    }
    expect(source).not.toMatch(/\b(document|window|HTMLCanvasElement|ImageData|OffscreenCanvas)\b/)
  })

  it('no import loop between folders: the folders, entries aside, import one another in one direction only', () => {
    // The entries (index.ts, internal.ts…) gather their folders' names; every other module imports down.
    const entries = new Set([
      'src/index.ts',
      'src/core/index.ts',
      'src/core/internal.ts',
      'src/three/index.ts',
      'src/three/webgpu/index.ts',
      'src/react/rapier/index.ts',
    ])
    const graph = new Map<string, Map<string, string>>()
    for (const file of sourceFiles) {
      if (entries.has(rel(file))) continue
      const from = rel(join(file, '..'))
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue
        const to = rel(resolve(file, '..', spec, '..'))
        if (to === from) continue
        if (!graph.has(from)) graph.set(from, new Map())
        if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${rel(file)} imports ${spec}`)
      }
    }
    const loops: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (folder: string, path: string[]): void => {
      state.set(folder, 'open')
      for (const [next, why] of graph.get(folder) ?? []) {
        if (state.get(next) === 'open') loops.push([...path, why].join(' → '))
        else if (!state.has(next)) visit(next, [...path, why])
      }
      state.set(folder, 'done')
    }
    for (const folder of graph.keys()) if (!state.has(folder)) visit(folder, [])
    expect(loops).toEqual([])
    expect(graph.size).toBeGreaterThan(8)
  })

  it('the three.js layer imports no React', () => {
    const three = sourceFiles.filter((file) => rel(file).startsWith('src/three/'))
    const bad = three.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter(
          (spec) =>
            /^(react|react-dom|@react-three\/)/.test(spec) ||
            (spec.startsWith('.') && /^src\/(react|cli)\//.test(rel(resolve(file, '..', spec)))),
        )
        .map((spec) => `${rel(file)}: ${spec}`),
    )
    expect(bad).toEqual([])
  })

  it('npm run lint fails when the core imports three.js or React, or the three.js layer imports React', async () => {
    const eslint = new ESLint({ cwd: ROOT })
    const lint = async (filePath: string, code: string) =>
      (await eslint.lintText(code, { filePath: join(ROOT, filePath) }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-imports')
        .length
    expect(await lint('src/core/format/probe.ts', "import { Mesh } from 'three'\nexport const x = Mesh\n")).toBeGreaterThan(0)
    expect(await lint('src/core/probe.ts', "import { useRef } from 'react'\nexport const x = useRef\n")).toBeGreaterThan(0)
    expect(
      await lint('src/core/format/probe.ts', "import { MD2Loader } from '../../three/loaders/MD2Loader.js'\nexport const x = MD2Loader\n"),
    ).toBeGreaterThan(0)
    expect(await lint('src/three/mesh/probe.ts', "import { useRef } from 'react'\nexport const x = useRef\n")).toBeGreaterThan(0)
    expect(
      await lint('src/three/mesh/probe.ts', "import { MD2Model } from '../../react/MD2Model.js'\nexport const x = MD2Model\n"),
    ).toBeGreaterThan(0)
    // three.js's WebGPU side only behind the react-three-md2/webgpu entry (a WebGL app never bundles it).
    expect(await lint('src/three/crowd/probe.ts', "import { Fn } from 'three/tsl'\nexport const x = Fn\n")).toBeGreaterThan(0)
    expect(
      await lint('src/react/probe.ts', "import { WebGPURenderer } from 'three/webgpu'\nexport const x = WebGPURenderer\n"),
    ).toBeGreaterThan(0)
    expect(
      await lint('src/three/crowd/probe.ts', "import { crowdWebGPU } from '../webgpu/crowdWebGPU.js'\nexport const x = crowdWebGPU\n"),
    ).toBeGreaterThan(0)
    expect(await lint('src/three/webgpu/probe.ts', "import { Fn } from 'three/tsl'\nexport const x = Fn\n")).toBe(0)
    // Imports that go down are fine.
    expect(
      await lint(
        'src/react/probe.ts',
        "import { Mesh } from 'three'\nimport { parseMD2 } from '../core/format/parse.js'\nexport const x = [Mesh, parseMD2]\n",
      ),
    ).toBe(0)
  })
})

describe('file size', () => {
  /** Written by a script from a template (`npm run generate:kernels`), not by hand. */
  const GENERATED = new Set(['src/core/animation/blendKernels.ts'])
  /**
   * Hand-written files still over the limit, to be split into coherent files: the list only shrinks (a file
   * listed here and back under the limit fails too, so that it leaves the list).
   */
  const STILL_OVER = new Set<string>([])
  const MAX_LINES = 500
  const HAND_WRITTEN = ['src', 'test', 'bench', 'scripts', 'stories', 'examples', 'bin', '.storybook', '.ci']
  const walkCode = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('dist-') || name === 'storybook-static') return []
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return walkCode(path)
      return /\.(ts|tsx|mts|js|mjs|cjs)$/.test(name) ? [path] : []
    })
  const linesOf = (file: string) => {
    const text = readFileSync(file, 'utf8')
    return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  }
  const files = HAND_WRITTEN.flatMap((dir) => walkCode(join(ROOT, dir))).map((file) => [rel(file), linesOf(file)] as const)

  it(`no hand-written source, test, benchmark or script passes ${MAX_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(300)
    const over = files.filter(([file, lines]) => lines > MAX_LINES && !GENERATED.has(file) && !STILL_OVER.has(file))
    expect(over.map(([file, lines]) => `${file}: ${lines} lines`)).toEqual([])
  })

  it('the files left to split are still over the limit (split, they leave the list)', () => {
    const under = files.filter(([file, lines]) => STILL_OVER.has(file) && lines <= MAX_LINES)
    expect(under.map(([file]) => file)).toEqual([])
    expect(files.filter(([file]) => STILL_OVER.has(file)).length).toBe(STILL_OVER.size)
  })
})

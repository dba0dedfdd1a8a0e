#!/usr/bin/env node
/**
 * Every code sample a reader may paste, type-checked against the package as a user installs it (packed,
 * unpacked into a consumer whose peers are linked from this repository: no network):
 *  - the ```ts and ```tsx blocks of README.md, docs/*.md and stories/*.mdx (indented ones inside lists too);
 *  - the files of examples/snippets/, which the MDX pages show with `<Source code={…?raw}>` (or a docs page
 *    shows as a marked copy).
 *
 * A sample with an `import` is a complete module: checked as pasted into `src/` of a fresh Vite React +
 * TypeScript app, under the compiler options of create-vite's template (bundler resolution, react-jsx,
 * verbatimModuleSyntax, unused names and parameters refused) with `strict` on.
 * A sample without imports is a fragment: checked after a prelude that imports every export of
 * react-three-md2, @react-three/fiber, @react-three/drei, react and three (the first of them wins a name
 * they share; also `* as THREE` and `* as React`), with unused names allowed (most of the prelude is).
 * That is the only context a fragment gets: a sample that needs names of its own (a list to map, a ref)
 * declares them, as a component's props or in its body, and is then a complete sample.
 *
 * Two canaries, a fragment and a module that give `<MD2Model>` a prop it does not have, must each fail
 * with exactly that error, or the check itself could not see a wrong prop. A file of examples/snippets/
 * that no MDX page shows fails too. Errors are reported as `file:line:column` of the README, the docs page,
 * the MDX page or the snippet.
 *
 *   node scripts/check-samples.mjs [--no-build] [--keep]
 *   (--no-build packs dist/ as it is, for a caller that has just run `npm run build`)
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { PACKAGE_DEPENDENCIES, installPacked, packLibrary, root } from './packed-consumer.mjs'

const args = process.argv.slice(2)
const keep = args.includes('--keep')
const build = !args.includes('--no-build')
const SNIPPETS = 'examples/snippets'
/** The modules a fragment's prelude imports from, the first winning a name several export. */
const PRELUDE_MODULES = ['react-three-md2', '@react-three/fiber', '@react-three/drei', 'react', 'three']

/** create-vite's react-ts template (tsconfig.app.json), plus `strict`. */
const VITE_APP_OPTIONS = {
  target: 'es2023',
  lib: ['ES2023', 'DOM'],
  module: 'esnext',
  types: ['vite/client'],
  allowArbitraryExtensions: true,
  skipLibCheck: true,
  moduleResolution: 'bundler',
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  moduleDetection: 'force',
  noEmit: true,
  jsx: 'react-jsx',
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  erasableSyntaxOnly: true,
  noFallthroughCasesInSwitch: true,
}

// ---------------------------------------------------------------------------------------------
// The samples.

/** The ```ts/```tsx blocks of a markdown or MDX file: `line` is the file's line of the block's first line. */
function fencedBlocks(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const blocks = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(\S*)/.exec(lines[i])
    if (!open) continue
    const [, indent, fence, lang] = open
    const close = new RegExp(`^\\s*\`{${fence.length},}\\s*$`)
    let end = i + 1
    while (end < lines.length && !close.test(lines[end])) end++
    if (lang === 'ts' || lang === 'tsx') {
      const code = lines
        .slice(i + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
        .join('\n')
      blocks.push({ origin: file, line: i + 2, column: indent.length, lang, code: `${code}\n` })
    }
    i = end
  }
  return blocks
}

/** The reference pages (docs/*.md, shown in Storybook under Reference/): their samples are checked as the README's. */
const docPages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`)
const mdxPages = readdirSync(join(root, 'stories'))
  .filter((name) => name.endsWith('.mdx'))
  .sort()
  .map((name) => `stories/${name}`)
const snippetFiles = readdirSync(join(root, SNIPPETS))
  .filter((name) => /\.tsx?$/.test(name))
  .sort()
  .map((name) => `${SNIPPETS}/${name}`)

const samples = [
  ...fencedBlocks('README.md'),
  ...docPages.flatMap(fencedBlocks),
  ...mdxPages.flatMap(fencedBlocks),
  ...snippetFiles.map((file) => ({
    origin: file,
    line: 1,
    column: 0,
    lang: file.endsWith('.tsx') ? 'tsx' : 'ts',
    code: readFileSync(join(root, file), 'utf8'),
  })),
]
for (const sample of samples) sample.complete = /^\s*import\s/m.test(sample.code)

// A snippet is a sample only when a page shows it.
const shown = new Set(
  mdxPages.flatMap((page) =>
    [...readFileSync(join(root, page), 'utf8').matchAll(/from\s+['"]([^'"]+)\?raw['"]/g)].map((match) =>
      relative(root, join(root, 'stories', match[1])),
    ),
  ),
)
// A docs page (rendered in Storybook whole) shows a snippet it copies verbatim, marked by a comment naming
// the file (test/docs-samples.test.ts keeps the copy equal to it).
for (const page of docPages)
  for (const match of readFileSync(join(root, page), 'utf8').matchAll(/<!-- the file (\S+), verbatim/g)) shown.add(match[1])
const unshown = snippetFiles.filter((file) => !shown.has(file))

// ---------------------------------------------------------------------------------------------
// The consumer.

const work = mkdtempSync(join(tmpdir(), 'md2-samples-'))
let failed = 0
try {
  const tarball = packLibrary(work, { build })
  const app = join(work, 'app')
  // @react-three/rapier: the optional peer of react-three-md2/rapier, which the physics samples import.
  installPacked(app, tarball, [...PACKAGE_DEPENDENCIES, '@react-three/drei', '@react-three/rapier', 'vite'])
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'samples', private: true, type: 'module' }, null, 2))
  mkdirSync(join(app, 'src'))
  const { options } = ts.convertCompilerOptionsFromJson(VITE_APP_OPTIONS, app)
  const fragmentOptions = { ...options, noUnusedLocals: false, noUnusedParameters: false }

  const prelude = preludeFor(app, options)
  const preludeLines = prelude.split('\n').length - 1

  const files = []
  const write = (name, code, sample) => {
    const path = join(app, 'src', name)
    writeFileSync(path, code)
    files.push({ path, sample })
  }
  samples.forEach((sample, n) => {
    const name = `${String(n).padStart(2, '0')}-${sample.origin.replace(/[^\w.-]+/g, '_')}-${sample.line}.${sample.lang}`
    write(name, sample.complete ? sample.code : prelude + sample.code, sample)
  })
  const canaryFragment = '<MD2Model url="/players/ogro/tris.MD2" notAProp={1} />\n'
  const canaryModule = `import { MD2Model } from 'react-three-md2'\n\nexport const typo = ${canaryFragment}`
  write('canary-fragment.tsx', prelude + canaryFragment, { origin: 'canary fragment', line: 1, column: 0, complete: false })
  write('canary-module.tsx', canaryModule, { origin: 'canary module', line: 1, column: 0, complete: true })

  const diagnosticsOf = (complete, compilerOptions) => {
    const program = ts.createProgram(
      files.filter((file) => file.sample.complete === complete).map((file) => file.path),
      compilerOptions,
    )
    return ts.getPreEmitDiagnostics(program)
  }
  const diagnostics = [...diagnosticsOf(true, options), ...diagnosticsOf(false, fragmentOptions)]

  // Each error at the sample's own place: the README's, the docs page's or the MDX page's line, the snippet's line.
  const errorsBySample = new Map()
  const elsewhere = []
  for (const diagnostic of diagnostics) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ')
    const file = diagnostic.file && files.find((candidate) => candidate.path === diagnostic.file.fileName)
    if (!file) {
      elsewhere.push(`${diagnostic.file ? relative(app, diagnostic.file.fileName) : 'options'}: TS${diagnostic.code}: ${message}`)
      continue
    }
    const { sample } = file
    const at = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
    const line = at.line - (sample.complete ? 0 : preludeLines)
    const place =
      line < 0
        ? `${sample.origin}:${sample.line} (in the prelude)`
        : `${sample.origin}:${sample.line + line}:${sample.column + at.character + 1}`
    const list = errorsBySample.get(sample) ?? []
    list.push(`${place} error TS${diagnostic.code}: ${message}`)
    errorsBySample.set(sample, list)
  }

  for (const sample of samples) {
    const errors = errorsBySample.get(sample) ?? []
    const kind = sample.complete ? 'module' : 'fragment after the prelude'
    if (errors.length === 0) console.log(`✓ ${sample.origin}:${sample.line} (${sample.lang}, ${kind})`)
    else {
      failed++
      console.log(`✗ ${sample.origin}:${sample.line} (${sample.lang}, ${kind})\n    ${errors.join('\n    ')}`)
    }
  }
  for (const file of unshown) {
    failed++
    console.log(`✗ ${file}: no page shows it (import it with ?raw into a stories/*.mdx page and show it with <Source>)`)
  }
  for (const line of elsewhere) {
    failed++
    console.log(`✗ ${line}`)
  }
  let canariesSeen = 0
  for (const canary of files.filter((file) => file.sample.origin.startsWith('canary'))) {
    const errors = errorsBySample.get(canary.sample) ?? []
    if (errors.length === 1 && errors[0].includes('notAProp')) canariesSeen++
    else {
      failed++
      console.log(
        `✗ ${canary.sample.origin}: expected exactly one error, for notAProp; got ${errors.length}: the check cannot see a wrong prop\n    ${errors.join('\n    ')}`,
      )
    }
  }
  const count = (test) => samples.filter(test).length
  console.log(
    `Samples: ${samples.length} checked against the packed react-three-md2 ` +
      `(README.md: ${count((s) => s.origin === 'README.md')}, docs/*.md: ${count((s) => s.origin.startsWith('docs/'))}, stories/*.mdx: ${count((s) => s.origin.endsWith('.mdx'))}, ` +
      `${SNIPPETS}: ${snippetFiles.length}; ${count((s) => !s.complete)} fragment(s) after the prelude), ` +
      `${samples.length - samples.filter((sample) => errorsBySample.has(sample)).length} compile; ` +
      `${canariesSeen} of 2 canaries (a prop that does not exist) reported as they must be`,
  )
} finally {
  if (keep) console.log(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
process.exit(failed > 0 ? 1 : 0)

// ---------------------------------------------------------------------------------------------

/**
 * The imports a fragment is checked after: every export of PRELUDE_MODULES, types with `type` (the
 * options have verbatimModuleSyntax), read from the installed packages' own declarations.
 */
function preludeFor(app, options) {
  const probe = join(app, 'src', 'prelude-probe.ts')
  writeFileSync(probe, PRELUDE_MODULES.map((module, i) => `import * as m${i} from '${module}'\n`).join(''))
  const program = ts.createProgram([probe], { ...options, noUnusedLocals: false })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(probe)
  const taken = new Set(['THREE', 'React'])
  const lines = []
  source.statements.forEach((statement, i) => {
    const moduleSymbol = checker.getSymbolAtLocation(statement.moduleSpecifier)
    if (!moduleSymbol) throw new Error(`prelude: ${PRELUDE_MODULES[i]} does not resolve in the consumer`)
    const names = []
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const name = symbol.escapedName.toString()
      if (name === 'default' || taken.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name)) continue
      taken.add(name)
      names.push(isValue(checker, symbol) ? name : `type ${name}`)
    }
    lines.push(`import { ${names.join(', ')} } from '${PRELUDE_MODULES[i]}'`)
  })
  rmSync(probe)
  return `import * as THREE from 'three'\nimport * as React from 'react'\n${lines.join('\n')}\n`
}

/** Whether `symbol` can be imported as a value: it is one, and no re-export on the way to it is `export type`. */
function isValue(checker, symbol) {
  let current = symbol
  while (current.flags & ts.SymbolFlags.Alias) {
    const typeOnly = (current.declarations ?? []).some(
      (declaration) => declaration.isTypeOnly || (ts.isExportSpecifier(declaration) && declaration.parent.parent.isTypeOnly),
    )
    if (typeOnly) return false
    const next = checker.getImmediateAliasedSymbol(current)
    if (!next || next === current) break
    current = next
  }
  return Boolean(current.flags & ts.SymbolFlags.Value)
}

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as stub from './support/three-webgpu-stub'

/**
 * The test run on the oldest three.js points `three/webgpu` and `three/tsl` at a stub (vitest.config.ts). A
 * name imported from them that the stub lacks fails every module that imports it on that run only, which
 * nothing on the current three.js would show: this keeps the stub's list and the code's imports together.
 */
const ROOT = resolve(import.meta.dirname, '..')
/** What vitest loads on that run: the library, its stories, the tests and the benchmark's browser page. */
const LOADED = ['src', 'stories', 'test', 'bench/browser']

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

/** Value names imported from `three/webgpu` or `three/tsl` (type-only imports are erased), by file. */
function webgpuImports(file: string): { names: string[]; namespace: boolean } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const names: string[] = []
  let namespace = false
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    if (!/^three\/(webgpu|tsl)$/.test(statement.moduleSpecifier.text)) continue
    const clause = statement.importClause
    if (!clause || clause.isTypeOnly) continue
    if (clause.name) namespace = true
    const bindings = clause.namedBindings
    if (bindings && ts.isNamespaceImport(bindings)) namespace = true
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text)
    }
  }
  return { names, namespace }
}

describe('the three/webgpu and three/tsl stub for the oldest three.js', () => {
  const files = LOADED.flatMap((dir) => walk(join(ROOT, dir))).filter((file) => /\.tsx?$/.test(file) && !file.includes('three-webgpu-stub'))
  const found = files.map((file) => ({ file: relative(ROOT, file), ...webgpuImports(file) }))

  it('finds the imports it checks (the WebGPU entry imports from both)', () => {
    const entry = found.filter((f) => f.file.startsWith('src/three/webgpu/')).flatMap((f) => f.names)
    expect(entry).toContain('Fn')
    expect(entry).toContain('StorageBufferAttribute')
  })

  it('exports every value name the loaded code imports from them, and no file takes the whole module', () => {
    const missing = found.flatMap((f) => f.names.filter((name) => !(name in stub)).map((name) => `${f.file}: ${name}`))
    expect(missing).toEqual([])
    expect(found.filter((f) => f.namespace).map((f) => f.file)).toEqual([])
  })
})

import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const ASSETS = join(ROOT, 'assets')

export interface ModelFile {
  /** Shown in tables: relative to assets/ (or to the folder given on the command line). */
  label: string
  path: string
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}

/** Every `.md2` file (any case) under the folders, sorted; labels relative to each folder. */
export function listModels(folders: readonly string[]): ModelFile[] {
  const seen = new Set<string>()
  const files: ModelFile[] = []
  for (const folder of folders) {
    const base = resolve(folder)
    for (const path of walk(base).sort()) {
      if (!path.toLowerCase().endsWith('.md2') || seen.has(path)) continue
      seen.add(path)
      const label = relative(base, path).split('\\').join('/')
      files.push({ label: base === ASSETS ? label : `${relative(ROOT, base) || base}/${label}`, path })
    }
  }
  return files
}

/** The file as its own exact-size ArrayBuffer (three's MD2Loader.parse needs one). */
export function readArrayBuffer(path: string): ArrayBuffer {
  const buffer = readFileSync(path)
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer
}

export const OGRO = join(ASSETS, 'quake2/ogro/tris.MD2')
export const OGRO_WEAPON = join(ASSETS, 'quake2/ogro/weapon.md2')
/** UFO:AI's soldier's tags and a head worn on `tag_head` (his body: `SOLDIER`). */
export const SOLDIER_TAGS = join(ASSETS, 'ufoai/soldier-male/body.tag')
export const SOLDIER_HEAD = join(ASSETS, 'ufoai/soldier-male/head01.md2')
export const SOLDIER = join(ASSETS, 'ufoai/soldier-male/body.md2')
export const SOLDIER_ANM = join(ASSETS, 'ufoai/soldier-male/body.anm')

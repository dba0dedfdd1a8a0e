import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'

/** The repository's bundled real models and skins (see assets/CREDITS.md). */
export const ASSETS_DIR = resolve(import.meta.dirname, '../../assets')

/** Bytes of a file under assets/, e.g. `readAsset('quake2/ogro/tris.MD2')`. */
export function readAsset(path: string): Uint8Array {
  const buffer = readFileSync(join(ASSETS_DIR, path))
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
}

/** A model under assets/, parsed from its own copy of the bytes, named `name` (its path unless given). */
export function parseAsset(path: string, name = path): MD2ModelData {
  return parseMD2(readAsset(path).slice(), { name })
}

/** A fresh ArrayBuffer copy of an asset (for APIs and mutations that need their own buffer). */
export function readAssetBuffer(path: string): ArrayBuffer {
  return readAsset(path).slice().buffer
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}

/** Paths (relative to assets/) of every file whose extension matches, case-insensitively. */
export function listAssets(extension: string): string[] {
  const suffix = `.${extension.toLowerCase()}`
  return walk(ASSETS_DIR)
    .filter((file) => file.toLowerCase().endsWith(suffix))
    .map((file) => relative(ASSETS_DIR, file).split('\\').join('/'))
    .sort()
}

/** Every MD2 file in the repository. */
export const ALL_MD2 = listAssets('md2')

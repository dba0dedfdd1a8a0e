import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Group, Mesh, MeshLambertMaterial } from 'three'
import { vi } from 'vitest'
import { ASSETS_DIR } from './assets'
import type { Renderer } from './render'

// ---------------------------------------------------------------------------------------------
// A fake web server: `http://localhost/a/<path under assets/>` serves the real files, byte for
// byte; anything else is a 404. `extra` adds or overrides files; `gate` holds a response back.

export const HOST = 'http://localhost'
export const OGRO = `${HOST}/a/quake2/ogro/tris.MD2`
export const RATAMAHATTA = `${HOST}/a/quake2/ratamahatta/tris.md2`
export const BLOODSPIDER = `${HOST}/a/ufoai/bloodspider/bloodspider.md2`

export interface Server {
  requests: string[]
  fetch: ReturnType<typeof vi.spyOn>
}

export function serve(extra: Record<string, Uint8Array> = {}, gate?: { path: string; promise: Promise<void> }): Server {
  const requests: string[] = []
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const path = decodeURIComponent(new URL(url).pathname)
    requests.push(path)
    if (gate && path === gate.path) await gate.promise
    const body = extra[path] ?? assetAt(path)
    if (!body) return new Response('not found', { status: 404, statusText: 'Not Found' })
    return new Response(body.slice(), { headers: { 'Content-Length': String(body.length) } })
  })
  return { requests, fetch }
}

function assetAt(path: string): Uint8Array | undefined {
  if (!path.startsWith('/a/')) return undefined
  const file = join(ASSETS_DIR, path.slice(3))
  if (!existsSync(file) || !statSync(file).isFile()) return undefined
  return new Uint8Array(readFileSync(file))
}

/** A 2 × 2 true-colour TGA (type 2, 24-bit, top-left origin): red, green / blue, white. */
export function tinyTGA(): Uint8Array {
  const header = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0x20]
  const bgr = [0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255]
  return new Uint8Array([...header, ...bgr])
}

export const meshOf = (group: Group) => group.children[0] as Mesh
export const mapOf = (group: Group) => (meshOf(group).material as MeshLambertMaterial).map

/** Renders until `check` passes (Suspense resolves over a few ticks). */
export async function until(r: Renderer, check: () => void): Promise<void> {
  await vi.waitFor(async () => {
    await r.advanceFrames(1, 0)
    check()
  })
}

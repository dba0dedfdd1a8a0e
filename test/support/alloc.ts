import { Session } from 'node:inspector'
import { getHeapSpaceStatistics } from 'node:v8'
import { Vector3, type Camera } from 'three'
import { expect } from 'vitest'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'

function newSpaceUsed(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_used_size
  throw new Error('no new_space in v8.getHeapSpaceStatistics()')
}

/**
 * Bytes allocated per call of `fn`, from the growth of V8's young generation (allocation there is a
 * pointer bump, so growth between two reads is what was allocated, unless a scavenge ran: such
 * samples shrink and are dropped). The cost of reading the statistics is measured and subtracted.
 */
export function bytesPerCall(fn: () => void, calls: number, samples = 60): number {
  const grow = (body: () => void) => {
    const deltas: number[] = []
    for (let s = 0; s < samples; s++) {
      const before = newSpaceUsed()
      body()
      const after = newSpaceUsed()
      if (after >= before) deltas.push(after - before)
    }
    expect(deltas.length).toBeGreaterThan(samples / 2)
    deltas.sort((a, b) => a - b)
    return deltas[deltas.length >> 1]!
  }
  const empty = grow(() => {})
  const used = grow(() => {
    for (let c = 0; c < calls; c++) fn()
  })
  return (used - empty) / calls
}

/** How long `settled` waits without a lower figure before it gives up, and how long at the most. */
export const SETTLE_QUIET_MS = 30_000
export const SETTLE_LIMIT_MS = 120_000

/**
 * The lowest of several measurements, running `warm` and yielding between them: the optimizing
 * compiler works on a background thread (slow to get a core on a busy machine) and until its code
 * is installed a path runs in baseline code, which boxes numbers. A real allocation shows in every
 * measurement, so the lowest is the path's own figure.
 *
 * The optimizer takes the path's functions one at a time, each when it has run enough, so the figure
 * falls in steps, slower on a busy machine. It waits while the steps come: until SETTLE_QUIET_MS pass
 * without a lower figure (SETTLE_LIMIT_MS at the most). A figure that never reaches zero is printed
 * with its steps, so a failure says whether it was still falling, and with where a frame allocates.
 *
 * What V8 inlines varies from run to run, and a fractional number passed to or returned from a call left
 * out of line is boxed. To find every such call on a path, run the test with inlining off and the sites
 * printed even when it passes: `ALLOC_SITES=1 npx vitest run --project unit FILE --execArgv=--no-turbo-inlining`.
 */
export async function settled(measure: () => number, warm: () => void): Promise<number> {
  let lowest = Number.POSITIVE_INFINITY
  const start = performance.now()
  let lastLower = start
  const steps: string[] = []
  while (lowest >= 1 && performance.now() - lastLower <= SETTLE_QUIET_MS && performance.now() - start <= SETTLE_LIMIT_MS) {
    const bytes = measure()
    if (bytes < lowest) {
      lowest = bytes
      lastLower = performance.now()
      steps.push(`${bytes} B at ${((lastLower - start) / 1000).toFixed(1)} s`)
    }
    const until = performance.now() + 30
    while (performance.now() < until) warm()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  if (lowest >= 1 || process.env.ALLOC_SITES) {
    const waited = ((performance.now() - start) / 1000).toFixed(1)
    console.log(
      `settled: ${lowest} B at the lowest after ${waited} s; the steps down: ${steps.join(', ')}\n` +
        `where a frame allocates (bytes sampled over 200 frames, innermost call first):\n${allocationSites(warm, 200)}`,
    )
  }
  return lowest
}

/**
 * Where `fn` allocates: V8's sampling heap profiler (the inspector's, in this process, so the code
 * already optimized stays as it is) over `calls` calls, objects collected since included. One line per
 * allocating stack, its three innermost calls first, the largest first.
 */
export function allocationSites(fn: () => void, calls: number, top = 8): string {
  const session = new Session()
  session.connect()
  // The in-process session answers synchronously.
  const post = <T>(method: string, params?: object): T => {
    let result: unknown
    let failure: Error | null = null
    session.post(method, params, (error, answer) => {
      failure = error
      result = answer
    })
    if (failure) throw failure
    return result as T
  }
  try {
    post('HeapProfiler.enable')
    post('HeapProfiler.startSampling', {
      samplingInterval: 32,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
    for (let c = 0; c < calls; c++) fn()
    type Node = {
      callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
      selfSize: number
      children: Node[]
    }
    const { profile } = post<{ profile: { head: Node } }>('HeapProfiler.stopSampling')
    const bytes = new Map<string, number>()
    const walk = (node: Node, stack: string[]) => {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame
      const here = [
        `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}:${columnNumber + 1}`,
        ...stack,
      ]
      if (node.selfSize > 0) {
        const key = here.slice(0, 3).join(' < ')
        bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize)
      }
      for (const child of node.children) walk(child, here)
    }
    walk(profile.head, [])
    return [...bytes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([stack, size]) => `  ${size} B: ${stack}`)
      .join('\n')
  } finally {
    session.disconnect()
  }
}

/**
 * A frame of `leader.update` for 1,000 instances on a grid (with its followers, seen by `camera`), each placed by
 * `place(i)` after it is positioned: bytes allocated, after the JIT settles (`settled`).
 */
export async function crowdBytesPerFrame(leader: MD2Crowd, camera: Camera, place: (i: number) => void): Promise<number> {
  for (let i = 0; i < 1000; i++) {
    leader.setTransform(i, { position: new Vector3((i % 40) * 40 - 800, 0, -Math.floor(i / 40) * 40), rotation: i * 0.1 })
    place(i)
  }
  const frame = () => leader.update(1 / 60, camera)
  return settled(() => bytesPerCall(frame, 1, 20), frame)
}

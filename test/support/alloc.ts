import { getHeapSpaceStatistics } from 'node:v8'
import { expect } from 'vitest'

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
 * with its steps, so a failure says whether it was still falling.
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
  if (lowest >= 1) {
    const waited = ((performance.now() - start) / 1000).toFixed(1)
    console.log(`settled: ${lowest} B at the lowest after ${waited} s; the steps down: ${steps.join(', ')}`)
  }
  return lowest
}

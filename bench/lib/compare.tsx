import ReactThreeTestRenderer from '@react-three/test-renderer'
import type { ReactElement } from 'react'
import { median, now } from './stats'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

const DELTA = 1 / 60

export interface CompareOptions {
  rounds: number
  frames: number
}

/**
 * CPU time per frame of two scenes in the test renderer, measured in the same run and alternating
 * which goes first each round: each scene is mounted, warmed up for 30 frames, `prepare`d, timed over
 * `frames` frames of 1/60 s (the median), and unmounted. Returns the median over rounds of each.
 */
export async function compareScenes<K extends string>(
  kinds: readonly [K, K],
  scene: (kind: K) => ReactElement,
  options: CompareOptions,
  prepare?: (kind: K, renderer: Renderer) => void | Promise<void>,
): Promise<Record<K, number>> {
  const samples = { [kinds[0]]: [] as number[], [kinds[1]]: [] as number[] } as Record<K, number[]>
  for (let round = 0; round < options.rounds; round++) {
    for (const kind of round % 2 ? [kinds[1], kinds[0]] : kinds) {
      const renderer = await ReactThreeTestRenderer.create(scene(kind))
      await renderer.advanceFrames(5, DELTA)
      await prepare?.(kind, renderer)
      for (let f = 0; f < 30; f++) await renderer.advanceFrames(1, DELTA)
      const times: number[] = []
      for (let f = 0; f < options.frames; f++) {
        const start = now()
        await renderer.advanceFrames(1, DELTA)
        times.push(now() - start)
      }
      samples[kind].push(median(times))
      await renderer.unmount()
    }
    process.stdout.write('.')
  }
  process.stdout.write('\n')
  return { [kinds[0]]: median(samples[kinds[0]]), [kinds[1]]: median(samples[kinds[1]]) } as Record<K, number>
}

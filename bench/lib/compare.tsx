import ReactThreeTestRenderer from '@react-three/test-renderer'
import type { ReactElement, ReactNode } from 'react'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Model, type MD2ModelProps } from '../../src/react/MD2Model'
import { OGRO, readArrayBuffer } from './models'
import { median, now } from './stats'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

const DELTA = 1 / 60

export interface CompareOptions {
  rounds: number
  frames: number
}

/** A comparison of N instances each way. */
export interface CountedCompareOptions extends CompareOptions {
  count: number
}

/**
 * CPU time per frame of scenes in the test renderer, measured in the same run (`interleaveScenes`): the
 * median over rounds of each.
 */
export async function compareScenes<K extends string>(
  kinds: readonly K[],
  scene: (kind: K) => ReactElement,
  options: CompareOptions,
  prepare?: (kind: K, renderer: Renderer) => void | Promise<void>,
): Promise<Record<K, number>> {
  const samples = await interleaveScenes(kinds, scene, options, prepare)
  return Object.fromEntries(kinds.map((kind) => [kind, median(samples[kind])])) as Record<K, number>
}

/**
 * CPU time per frame of scenes in the test renderer, every scene mounted at once and their frames
 * interleaved (one frame of each in turn, the order rotating), so that a change in the machine's load
 * touches all of them alike. Each round mounts the scenes afresh, runs 5 frames, `prepare`s them, warms
 * them up for 30 frames and times `frames` frames of 1/60 s each. Per kind, the median ms per frame of
 * each round.
 */
export async function interleaveScenes<K extends string>(
  kinds: readonly K[],
  scene: (kind: K) => ReactElement,
  options: CompareOptions,
  prepare?: (kind: K, renderer: Renderer) => void | Promise<void>,
): Promise<Record<K, number[]>> {
  const samples = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < options.rounds; round++) {
    const order = kinds.map((_, k) => kinds[(k + round) % kinds.length]!)
    const renderers = {} as Record<K, Renderer>
    for (const kind of order) {
      renderers[kind] = await ReactThreeTestRenderer.create(scene(kind))
      await renderers[kind].advanceFrames(5, DELTA)
      await prepare?.(kind, renderers[kind])
    }
    for (let f = 0; f < 30; f++) for (const kind of order) await renderers[kind].advanceFrames(1, DELTA)
    const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<K, number[]>
    for (let f = 0; f < options.frames; f++) {
      for (let k = 0; k < order.length; k++) {
        const kind = order[(k + f) % order.length]!
        const start = now()
        await renderers[kind].advanceFrames(1, DELTA)
        times[kind].push(now() - start)
      }
    }
    for (const kind of kinds) {
      samples[kind].push(median(times[kind]))
      await renderers[kind].unmount()
    }
    process.stdout.write('.')
  }
  process.stdout.write('\n')
  return samples
}

/**
 * `compareScenes` of `options.count` running Ogros each way, turned apart, whose props differ by kind
 * (`propsOf(kind, i)`): the cost of one feature of `<MD2Model>` at scale.
 */
export async function compareOgros<K extends string>(
  kinds: readonly [K, K],
  propsOf: (kind: K, i: number) => Partial<MD2ModelProps>,
  options: CountedCompareOptions,
  childrenOf: (kind: K) => ReactNode = () => null,
): Promise<Record<K, number>> {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'ogro' })
  return compareScenes(
    kinds,
    (kind) => (
      <>
        {Array.from({ length: options.count }, (_, i) => (
          <MD2Model key={i} model={model} animation="run" rotation-y={i * 0.1} {...propsOf(kind, i)}>
            {childrenOf(kind)}
          </MD2Model>
        ))}
      </>
    ),
    options,
  )
}

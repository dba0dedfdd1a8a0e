/**
 * A crowd drawn from stored rows on real WebGPU is culled by a compute pass into an indirect draw
 * (`CrowdComputeCull`), which also works out the listed instances' poses: the same picture as the vertex
 * stage's culling and posing, pixel for pixel, with instances in and out of view, hidden ones, the camera
 * moved, shadow maps drawn, crossfades caught mid-way, reversed and held play-once animations; and the
 * count it wrote on the GPU is the CPU's `inView`.
 */
import { useFrame } from '@react-three/fiber'
import { useEffect, useMemo } from 'react'
import { Vector3 } from 'three'
import { expect, test } from 'vitest'
import type { MD2ModelData } from '../../src/core/internal'
import { parseMD2 } from '../../src/index'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import type { CrowdComputeCull } from '../../src/three/webgpu/CrowdComputeCull'
import { coverage, difference } from '../../stories/support/pixels'
import { BLACK, expectRenderer, mount, waitUntil } from './canvas'
import { describeWebGPU } from '../support/webgpu-three'

const OGRO = '/assets/quake2/ogro/tris.MD2'
/** A grid of SIDE × SIDE Ogros, wider than the view and reaching behind the camera. */
const SIDE = 14

/** Where the camera stands and looks, set before every frame (R3F places its default camera itself). */
const view = { position: new Vector3(0, 2, 100), target: new Vector3(0, -8, 0) }

function Camera() {
  useFrame(({ camera }) => {
    camera.position.copy(view.position)
    camera.lookAt(view.target)
    camera.updateMatrixWorld()
  })
  return null
}

/**
 * The grid, some instances hidden, some still on a frame, the rest running (time held: a still picture).
 * `mixed`: the running ones after 3.3 s, some reversed, some played once and held on their last frame, and
 * then a third of them crossfading into another animation, caught 0.2 s into a fade of 0.5 s.
 */
function Grid({ model, into, castShadow, mixed }: { model: MD2ModelData; into: MD2Crowd[]; castShadow: boolean; mixed: boolean }) {
  const crowd = useMemo(() => {
    const made = new MD2Crowd(model, { limit: SIDE * SIDE })
    for (let i = 0; i < SIDE * SIDE; i++) {
      const x = ((i % SIDE) - SIDE / 2) * 30
      const z = 160 - Math.floor(i / SIDE) * 40
      made.setTransform(i, { position: new Vector3(x, -8, z), rotation: i * 0.7, scale: 0.5 })
      if (i % 3 === 0) made.showFrame(i, (i * 7) % 190)
      else
        made.play(i, i % 3 === 1 ? 'run' : 'attack', mixed ? { reverse: i % 4 === 1, loop: i % 5 !== 2, speed: 0.7 + (i % 7) * 0.1 } : {})
      if (i % 11 === 5) made.hide(i)
    }
    if (mixed) {
      made.update(3.3)
      for (let i = 1; i < SIDE * SIDE; i += 3) made.play(i, i % 2 === 0 ? 'salute' : 'wave', { crossfade: 0.5, reverse: i % 4 === 0 })
      made.update(0.2)
    }
    made.castShadow = castShadow
    return made
  }, [model, castShadow, mixed])
  useEffect(() => {
    into.push(crowd)
    return () => {
      into.splice(into.indexOf(crowd), 1)
      crowd.dispose()
    }
  }, [crowd, into])
  useFrame((state) => crowd.update(0, state.camera))
  return <primitive object={crowd} />
}

/** The crowd's cull pass (a private part): left off, the vertex stage culls, as elsewhere. */
const passOf = (crowd: MD2Crowd) => (crowd as unknown as { renderer: CrowdRenderer }).renderer.culled as CrowdComputeCull

describeWebGPU('a crowd culled by a compute pass on WebGPU', () => {
  const cases = [
    { shadows: false, mixed: false, name: '' },
    { shadows: true, mixed: false, name: ', casting shadows on a floor' },
    { shadows: true, mixed: true, name: ', mid-crossfade, reversed, played once and held, casting shadows' },
  ]
  for (const { shadows, mixed, name } of cases)
    test(`draws what the vertex stage's culling draws, the camera moved${name}`, async () => {
      const model = parseMD2(await (await fetch(OGRO)).arrayBuffer(), { name: OGRO }) as MD2ModelData
      const crowds: MD2Crowd[] = []
      view.position.set(0, 2, 100)
      view.target.set(0, -8, 0)
      const { stage, renderer } = await mount(
        <>
          <Camera />
          <directionalLight
            position={[30, 50, 80]}
            intensity={2.5}
            castShadow={shadows}
            shadow-camera-left={-150}
            shadow-camera-right={150}
            shadow-camera-top={150}
            shadow-camera-bottom={-150}
          />
          {shadows && (
            <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, -21, 0]} receiveShadow>
              <planeGeometry args={[800, 800]} />
              <meshLambertMaterial color="#808080" />
            </mesh>
          )}
          <Grid model={model} into={crowds} castShadow={shadows} mixed={mixed} />
        </>,
        { renderer: 'webgpu', shadows },
      )
      await expectRenderer(stage.canvas, 'webgpu')
      await waitUntil(() => crowds.length === 1, 'the crowd')
      const crowd = crowds[0]!
      const pass = passOf(crowd)
      const cameras: [number, number, number, number, number, number][] = [
        [0, 2, 100, 0, -8, 0],
        [-120, 40, 60, -200, -8, -100],
        [150, 30, -440, 0, -8, -100],
      ]
      for (const [x, y, z, tx, ty, tz] of cameras) {
        view.position.set(x, y, z)
        view.target.set(tx, ty, tz)
        const pictures = []
        for (const off of [false, true]) {
          pass.off = off
          await waitUntil(
            () => crowd.culledBy === (off ? 'vertex' : 'compute'),
            `culling by ${off ? 'the vertex stage' : 'the compute pass'}`,
          )
          const picture = await stage.settle((p) => coverage(p, undefined, BLACK) > 0.05, `the crowd from (${x}, ${y}, ${z})`)
          pictures.push(picture)
          const inView = crowd.inView
          // Some in view, some culled, some hidden: the test means something from each place.
          expect(inView).toBeGreaterThan(5)
          expect(inView).toBeLessThan(SIDE * SIDE - (SIDE * SIDE) / 11 - 10)
          if (!off) expect(await pass.listed(renderer)).toBe(inView)
        }
        const differing = difference(pictures[0]!, pictures[1]!)
        expect(differing, `${differing} pixels differ from (${x}, ${y}, ${z})`).toBe(0)
      }
      pass.off = false
    })
})

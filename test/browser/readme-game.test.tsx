/**
 * The README's game (examples/snippets/game.tsx, the same code verbatim: test/docs-samples.test.ts), played
 * in Chromium: its enemies die when clicked, one kill each however often clicked, and a click on empty space kills none.
 */
import { StrictMode, act } from 'react'
import { PerspectiveCamera, Vector3 } from 'three'
import { afterEach, expect, test, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import Game, { ENEMIES } from '../../examples/snippets/game'
import { openHost } from './canvas'

const WIDTH = 800
const HEIGHT = 600
const realFetch = globalThis.fetch

afterEach(() => {
  globalThis.fetch = realFetch
})

/** Where the game's camera (at [0, 30, 130], fov 50, looking at the origin as R3F points it) shows a world point, in the canvas's pixels. */
function onScreen(x: number, y: number, z: number): { x: number; y: number } {
  const camera = new PerspectiveCamera(50, WIDTH / HEIGHT, 0.1, 1000)
  camera.position.set(0, 30, 130)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  const point = new Vector3(x, y, z).project(camera)
  return { x: Math.round(((point.x + 1) / 2) * WIDTH), y: Math.round(((1 - point.y) / 2) * HEIGHT) }
}

test("the README's game: a click kills the enemy under the pointer, once; a click on empty space kills none", async () => {
  // The game's public/players/ogro is this repository's ogro folder.
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(String(input).replace('/players/ogro/', '/assets/quake2/ogro/'), init)) as typeof fetch
  const { host, root } = openHost(WIDTH, HEIGHT)
  // In <StrictMode>, as the Vite app it is pasted into renders it.
  await act(async () =>
    root.render(
      <StrictMode>
        <Game />
      </StrictMode>,
    ),
  )
  const canvas = await vi.waitFor(() => host.querySelector('canvas')!, { timeout: 10_000 })
  const kills = () => Number(/Kills: (\d+)/.exec(host.textContent ?? '')?.[1])
  expect(kills()).toBe(0)
  const click = (at: { x: number; y: number }) => userEvent.click(canvas, { position: at })
  // The first enemy's chest (its origin is the waist), clicked until the crowd has loaded and it dies.
  const first = onScreen(ENEMIES[0]!.x, 6, ENEMIES[0]!.z)
  await vi.waitFor(
    async () => {
      await click(first)
      expect(kills()).toBe(1)
    },
    { timeout: 30_000, interval: 500 },
  )
  // The sky above every enemy and the empty side count nothing.
  await click({ x: WIDTH / 2, y: 20 })
  await click({ x: 20, y: HEIGHT / 2 - 40 })
  expect(kills()).toBe(1)
  // Another enemy, double-clicked: both clicks land on it before it falls (a click on a dying enemy a moment
  // later may pass over it to the one behind), and the second counts nothing: one kill.
  const second = onScreen(ENEMIES[2]!.x, 6, ENEMIES[2]!.z)
  await userEvent.dblClick(canvas, { position: second })
  await vi.waitFor(() => expect(kills()).toBe(2))
  for (let frame = 0; frame < 10; frame++) await new Promise((resolve) => requestAnimationFrame(resolve))
  expect(kills()).toBe(2)
  root.unmount()
  host.remove()
})

import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { ArenaScene } from './support/ArenaScene'
import { findStage } from './support/pixels'

/**
 * A game in an afternoon: an ogro you drive with the keyboard (Quake II's player rules through
 * `usePlayerAnimation`, a third-person camera), 200 Ratamahattas on the GPU crowd in Quake II
 * lighting, armed by a second crowd that follows the first (`followCrowd`), shots through the crosshair that the crowd's raycast turns into a pain or a death played
 * once, footsteps from the run keyframes, and colliders from the pose boxes. Click the arena to give
 * it the keyboard. This is the game of the app in `examples/arena` (see its README), run on the library's source.
 *
 * Ogro by Magarnigal (skins by Ogro_Fix and Deranged); Ratamahatta by Brian "EvilBastard" Collins.
 * See `assets/CREDITS.md`.
 */
const meta = {
  title: 'Games/Arena',
  component: ArenaScene,
  parameters: { layout: 'fullscreen', stage: false },
  args: { enemies: 200 },
  argTypes: { enemies: { control: { type: 'range', min: 2, max: 1000, step: 2 } } },
} satisfies Meta<typeof ArenaScene>

export default meta
type Story = StoryObj<typeof meta>

/** A key going down or up on the arena, as the browser sends it to the focused element. */
const key = (target: HTMLElement, name: string, type: 'keydown' | 'keyup') =>
  target.dispatchEvent(new KeyboardEvent(type, { key: name, bubbles: true }))
const tap = (target: HTMLElement, name: string) => {
  key(target, name, 'keydown')
  key(target, name, 'keyup')
}

/** Its check: drawn; with the focus, W runs (footsteps counted); T aims and two shots with F make a kill. */
export const Arena: Story = {
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const arena = canvasElement.ownerDocument.querySelector<HTMLElement>('[data-testid="arena"]')!
    const state = () => canvasElement.ownerDocument.querySelector('[data-testid="arena-state"]')?.textContent ?? ''
    // The game's state (examples/arena's test probe): ready once the crowd is placed and the keys are listened to.
    await waitFor(() => expect(window.__arena?.state().ready).toBe(true), { timeout: 30_000 })
    arena.focus()
    key(arena, 'w', 'keydown')
    await waitFor(() => expect(state()).toMatch(/animation run/), { timeout: 30_000 })
    await waitFor(() => expect(state()).toMatch(/footsteps [1-9]/), { timeout: 30_000 })
    key(arena, 'w', 'keyup')
    await waitFor(() => expect(state()).not.toMatch(/animation run/), { timeout: 30_000 })
    // Keys are read once a frame: a frame between taps (software WebGPU draws slowly).
    tap(arena, 't')
    await stage.next(3)
    for (let shot = 0; shot < 6 && !/kills 1/.test(state()); shot++) {
      tap(arena, 'f')
      await stage.next(3)
    }
    await waitFor(() => expect(state()).toMatch(/kills 1/), { timeout: 30_000 })
  },
}

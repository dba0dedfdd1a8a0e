import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import PhysicsGame, { type Controls } from '../examples/snippets/physics-game'
import { findStage } from './support/pixels'

/** The docs page's game (examples/snippets/physics-game.tsx), driven by the keyboard. */
function PhysicsStory() {
  const [controls] = useState<Controls>(() => ({ forward: 0, turn: 0, jump: false, attack: false }))
  return <PhysicsGame controls={controls} />
}

/**
 * The Ogro carried by rapier's character controller on a rapier floor, its animation following the controller
 * (run, jump, attack, stand), stopped by three enemies whose `<MD2Collider>`s keep to their poses; a click shoots
 * one, and its collider lies down with it. W/S run, A/D turn, Space jumps, F attacks.
 *
 * Ogro by Magarnigal (skins by Ogro_Fix and Deranged). See `assets/CREDITS.md`.
 */
const meta = {
  title: 'Games/Physics',
  component: PhysicsStory,
  parameters: {
    layout: 'fullscreen',
    stage: false,
  },
} satisfies Meta<typeof PhysicsStory>

export default meta
type Story = StoryObj<typeof meta>

/** Its check: rapier loads (WebAssembly, from the package) and the models are drawn. */
export const Physics: Story = {
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
  },
}

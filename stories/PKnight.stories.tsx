import type { Meta, StoryObj } from '@storybook/react-vite'
import { animationNames, folderSkins, frameCount } from '../assets/quake2/pknight/tris.md2?md2-animations'
import { folderSkins as weaponSkins } from '../assets/quake2/pknight/weapon.md2?md2-animations'
import { PlayerScene, expectSkinnedPlayer, playerArgTypes } from './support/PlayerScene'
import { difference, findStage } from './support/pixels'
import { setStoryArgs } from './support/live-args'

const skinNames = Object.keys(folderSkins)

/**
 * The Perpetual Knight by James Green (CTF skins by Ryan Butts): a Quake II player model with every weapon model of its folder.
 * The skin select lists the images beside the model; the weapon is synced to the body.
 */
const meta = {
  title: 'Quake II/PKnight',
  component: PlayerScene,
  args: {
    url: '/models/quake2/pknight/tris.md2',
    weapon: '/models/quake2/pknight/weapon.md2',
    // The weapon's skin file as shipped (its case may differ from the name inside the model).
    weaponSkin: Object.values(weaponSkins)[0],
    showWeapon: true,
    skin: folderSkins[skinNames[0]!],
    animation: 'run',
    fps: 10,
    playing: true,
    loop: true,
    interpolate: true,
    speed: 1,
    scale: 1,
    wireframe: false,
  },
  argTypes: playerArgTypes({ animationNames, frameCount }, folderSkins),
} satisfies Meta<typeof PlayerScene>

export default meta
type Story = StoryObj<typeof meta>

/** Every animation of the file in the select, every skin beside it in the other. */
export const Playing: Story = {
  play: async ({ canvasElement }) => expectSkinnedPlayer(canvasElement),
}

/** Test only: paused, another skin changes the picture and is skinned too. */
export const SkinSwitch: Story = {
  tags: ['!dev', '!autodocs'],
  args: { playing: false },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const first = await stage.settle(() => true, 'the first skin to settle')
    setStoryArgs({ skin: folderSkins[skinNames[skinNames.length - 1]!] })
    await stage.settle((p) => difference(first, p) > 200, 'another skin to show')
  },
}

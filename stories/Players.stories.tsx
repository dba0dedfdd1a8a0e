import type { Meta, StoryObj } from '@storybook/react-vite'
import * as faerie from '../assets/quake2/faerie/tris.md2?md2-animations'
import { folderSkins as faerieWeaponSkins } from '../assets/quake2/faerie/weapon.md2?md2-animations'
import * as pknight from '../assets/quake2/pknight/tris.md2?md2-animations'
import { folderSkins as pknightWeaponSkins } from '../assets/quake2/pknight/weapon.md2?md2-animations'
import * as sydney from '../assets/quake2/sydney/tris.md2?md2-animations'
import { folderSkins as sydneyWeaponSkins } from '../assets/quake2/sydney/weapon.md2?md2-animations'
import { PlayerScene, playerStories } from './support/PlayerScene'

/**
 * Quake II player models from their folders, each with the skins beside it in a select (listed from the
 * folder at build time) and its weapon synced to the body.
 */
const meta = {
  title: 'Quake II/Players',
  component: PlayerScene,
} satisfies Meta<typeof PlayerScene>

export default meta
type Story = StoryObj<typeof meta>

const sydneyStories = playerStories('sydney', sydney, sydney.folderSkins, sydneyWeaponSkins, 'stand')
const pknightStories = playerStories('pknight', pknight, pknight.folderSkins, pknightWeaponSkins, 'run')
const faerieStories = playerStories('faerie', faerie, faerie.folderSkins, faerieWeaponSkins, 'salute')

/** Sydney by Brian "EvilBastard" Collins: her file names no skin; the skins of several authors lie beside it. */
export const Sydney: Story = { ...sydneyStories.base, ...sydneyStories.playing }
/** Test only: paused, another skin changes the picture and is skinned too. */
export const SydneySkinSwitch: Story = { ...sydneyStories.base, ...sydneyStories.skinSwitch, tags: ['!dev', '!autodocs'] }

/** The Perpetual Knight by James Green (CTF skins by Ryan Butts), with every weapon model of its folder. */
export const PKnight: Story = { name: 'Perpetual Knight', ...pknightStories.base, ...pknightStories.playing }
/** Test only: paused, another skin changes the picture and is skinned too. */
export const PKnightSkinSwitch: Story = {
  name: 'Perpetual Knight Skin Switch',
  ...pknightStories.base,
  ...pknightStories.skinSwitch,
  tags: ['!dev', '!autodocs'],
}

/** The Faerie by Brian "EvilBastard" Collins: her file names no skin; twenty skins lie beside it. */
export const Faerie: Story = { ...faerieStories.base, ...faerieStories.playing }
/** Test only: paused, another skin changes the picture and is skinned too. */
export const FaerieSkinSwitch: Story = { ...faerieStories.base, ...faerieStories.skinSwitch, tags: ['!dev', '!autodocs'] }

import { parseMD2Tags } from '../../src/core/tags/parseMD2Tags'
import { parseAsset, readAsset } from './assets'

/** The bodies and followers the follower-crowd tests draw. */
// Perpetual Knight: a 198-frame body and a 173-frame weapon.
export const knight = parseAsset('quake2/pknight/tris.md2')
export const knightWeapon = parseAsset('quake2/pknight/weapon.md2')
// UFO:AI's soldier: a body with tags and a head to place on them.
const SOLDIER = 'ufoai/soldier-male/'
export const soldier = parseAsset(`${SOLDIER}body.md2`)
export const head = parseAsset(`${SOLDIER}head01.md2`)
export const tags = parseMD2Tags(readAsset(`${SOLDIER}body.tag`), { name: 'body.tag' })

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  MD2Error,
  QUAKE2_PLAYER_ANIMATIONS,
  findAnimation,
  groupFrameAnimations,
  parseAnimationTable,
  parseMD2,
  type MD2Animation,
} from '../../../src/core/internal'
import { ASSETS_DIR, readAsset } from '../../support/assets'

const range = (animations: MD2Animation[], name: string) => {
  const found = animations.find((a) => a.name === name)
  return found ? [found.start, found.end] : undefined
}

/** The ranges of several animations by name, as `{ name: [start, end] }`. */
const ranges = (animations: MD2Animation[], names: string[]) => Object.fromEntries(names.map((name) => [name, range(animations, name)]))
const named = (...names: string[]) => names.map((name) => ({ name }))

describe('grouping frames into animations by name', () => {
  it('Ogro: its own names, boom as a one-frame animation, plus the Quake II table under its names', () => {
    const { animations } = parseMD2(readAsset('quake2/ogro/tris.MD2'))
    const own = animations.filter((a) => a.source === 'names')
    expect(own.map((a) => `${a.name} ${a.start}-${a.end}`)).toEqual([
      'stand 0-39',
      'run 40-45',
      'attack 46-53',
      'paina 54-57',
      'painb 58-61',
      'painc 62-65',
      'jump 66-71',
      'flip 72-83',
      'salute_alt 84-94',
      'bumflop 95-111',
      'wavealt 112-122',
      'sniffsniff 123-134',
      'cstand 135-153',
      'cwalk 154-159',
      'crattack 160-168',
      'crpain 169-172',
      'crdeath 173-177',
      'deatha 178-183',
      'deathb 184-189',
      'deathc 190-197',
      'boom 198-198',
    ])
    // The standard names reach the same frames: code written for any player model works on Ogro.
    expect(ranges(animations, ['pain1', 'taunt', 'crouch_pain'])).toEqual({ pain1: [54, 57], taunt: [95, 111], crouch_pain: [169, 172] })
    expect(animations.filter((a) => a.name === 'stand')).toHaveLength(1)
  })

  it('Faerie: 3-digit pain101/pain201/pain301 and death101.. stay apart', () => {
    const { animations } = parseMD2(readAsset('quake2/faerie/tris.md2'))
    expect(ranges(animations, ['pain1', 'pain2', 'pain3', 'death1', 'death3'])).toEqual({
      pain1: [54, 57],
      pain2: [58, 61],
      pain3: [62, 65],
      death1: [178, 183],
      death3: [190, 197],
    })
    expect(animations.find((a) => a.name === 'pain1')!.source).toBe('names')
  })

  it('Ratamahatta: stand001..stand040 is one run; pain001..pain012 is one "pain"', () => {
    const { animations } = parseMD2(readAsset('quake2/ratamahatta/tris.md2'))
    expect(ranges(animations, ['stand', 'pain', 'crstand', 'death'])).toEqual({
      stand: [0, 39],
      pain: [54, 65],
      crstand: [135, 153],
      death: [178, 197],
    })
    // and the player table's split of those frames
    expect(range(animations, 'death2')).toEqual([184, 189])
  })

  it('UFO:AI soldier: garbage names form one group and a warning asks for a table', () => {
    const model = parseMD2(readAsset('ufoai/soldier-male/body.md2'))
    expect(model.animations).toEqual([{ name: 'FRAME', start: 0, end: 1006, fps: 10, source: 'names' }])
    expect(model.warnings.join('\n')).toMatch(/share "FRAME": pass an animation table/)
  })

  it('UFO:AI soldier with body.anm: the table replaces the grouping', () => {
    const text = readFileSync(join(ASSETS_DIR, 'ufoai/soldier-male/body.anm'), 'utf8')
    const table = parseAnimationTable(text, 'body.anm')
    const model = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { animations: table })
    expect(model.animations.length).toBe(table.length)
    expect(model.animations[0]).toEqual({ name: 'death1', start: 826, end: 856, fps: 30, source: 'table' })
    expect(range(model.animations, 'walk0')).toEqual([174, 204])
    expect(model.animations.every((a) => a.end < 1007)).toBe(true)
  })

  it('UFO:AI wc: names without digits are one-frame animations', () => {
    const { animations } = parseMD2(readAsset('ufoai/wc/wc.md2'))
    expect(animations.map((a) => [a.name, a.start, a.end])).toEqual([
      ['wc', 0, 0],
      ['flush', 1, 1],
    ])
  })

  it('bloodspider: walk01..walk09 then walk010..walk034 is one run', () => {
    const { animations } = parseMD2(readAsset('ufoai/bloodspider/bloodspider.md2'))
    expect(ranges(animations, ['walk', 'shoot_melee'])).toEqual({ walk: [0, 33], shoot_melee: [34, 55] })
  })

  it('a name that comes back later is a separate animation with a suffix', () => {
    const groups = groupFrameAnimations(named('stand1', 'stand2', 'run1', 'stand1'))
    expect(groups.map((g) => [g.name, g.start, g.end])).toEqual([
      ['stand', 0, 1],
      ['run', 2, 2],
      ['stand_2', 3, 3],
    ])
  })

  it('frame099 → frame100 counts on: one run, not two', () => {
    const groups = groupFrameAnimations(named('frame098', 'frame099', 'frame100', 'frame101'))
    expect(groups).toHaveLength(1)
  })
})

describe('the Quake II player table', () => {
  it('covers frames 0–197 in order with no gap and no frame 198', () => {
    let next = 0
    for (const animation of QUAKE2_PLAYER_ANIMATIONS) {
      expect(animation.start).toBe(next)
      next = animation.end + 1
    }
    expect(next).toBe(198)
    expect(QUAKE2_PLAYER_ANIMATIONS.map((a) => a.name)).not.toContain('boom')
  })

  it('corrects the tutorials: crouch pain is 169–172, 95–111 is the taunt', () => {
    expect(range([...QUAKE2_PLAYER_ANIMATIONS], 'crouch_pain')).toEqual([169, 172])
    expect(range([...QUAKE2_PLAYER_ANIMATIONS], 'taunt')).toEqual([95, 111])
    expect(range([...QUAKE2_PLAYER_ANIMATIONS], 'fallback')).toBeUndefined()
  })

  it('is not added to models that are not players (173-frame pknight weapons)', () => {
    const { animations } = parseMD2(readAsset('quake2/pknight/w_bfg.md2'))
    expect(animations.every((a) => a.source === 'names')).toBe(true)
  })
})

describe('animation tables and lookup', () => {
  const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'))

  it('parseAnimationTable reads name start end fps, skipping comments', () => {
    expect(parseAnimationTable('// comment\nrun 1 5 12 # trailing\n\nidle 0 0\n')).toEqual([
      { name: 'run', start: 1, end: 5, fps: 12 },
      { name: 'idle', start: 0, end: 0, fps: 10 },
    ])
  })

  it('parseAnimationTable names the bad line', () => {
    try {
      parseAnimationTable('run 1 5 12\nwalk x 3\n', 'my.anm')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(MD2Error)
      expect((error as MD2Error).message).toMatch(/my\.anm, animation table: line 2/)
    }
  })

  it('a caller table with entries outside the frames keeps the good ones and warns', () => {
    const model = parseMD2(readAsset('quake2/ogro/tris.MD2'), {
      animations: [
        { name: 'ok', start: 0, end: 5 },
        { name: 'past', start: 190, end: 250 },
        { name: 'backwards', start: 9, end: 3 },
      ],
    })
    expect(model.animations.map((a) => a.name)).toEqual(['ok'])
    // 'past' does not fit the file's frames; 'backwards' is no range at all (checkAnimationDefs leaves it out).
    expect(model.warnings.filter((w) => w.includes('skipped'))).toHaveLength(1)
    expect(model.warnings.filter((w) => w.includes('entry 2') && w.includes('left out'))).toHaveLength(1)
  })

  it('findAnimation by name (case-insensitive), by index, by range (clamped)', () => {
    expect(findAnimation(ogro, 'RUN')).toMatchObject({ start: 40, end: 45 })
    expect(findAnimation(ogro, 1)).toMatchObject({ name: 'run' })
    expect(findAnimation(ogro, 'nope')).toBeUndefined()
    expect(findAnimation(ogro, 'Ru')).toBeUndefined()
    expect(findAnimation(ogro, 'Run@')).toBeUndefined()
    // In any case as toLowerCase has it, beyond ASCII too (where a letter may lower to another length).
    const named = (...names: string[]) => ({
      header: { numFrames: 10 },
      animations: names.map((name) => ({ name, start: 0, end: 9, fps: 10, source: 'names' as const })),
    })
    expect(findAnimation(named('Ärger', 'walk'), 'äRGER')).toMatchObject({ name: 'Ärger' })
    expect(findAnimation(named('i̇dle', 'walk'), 'İDLE')).toMatchObject({ name: 'i̇dle' })
    expect(findAnimation(named('idle', 'walk'), 'İDLE')).toBeUndefined()
    expect(findAnimation(named('walk', 'WALK'), 'WALK')).toMatchObject({ name: 'WALK' })
    expect(findAnimation(ogro, { start: 190, end: 500 })).toMatchObject({ start: 190, end: 198 })
    expect(findAnimation(ogro, { start: -5, end: 2, fps: 5 })).toMatchObject({ start: 0, end: 2, fps: 5 })
  })
})

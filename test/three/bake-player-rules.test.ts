/**
 * How a character's clips become a Quake II player and its frames' names: the clips a person would pick for each
 * animation (asset packs' and Mixamo's names), Blender's `Armature|Run` read as `Run`, names cut to MD2's 15 bytes
 * keeping each animation's prefix its own, an unnamed clip named by its index.
 */
import { AnimationClip, QuaternionKeyframeTrack, Quaternion, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { MAX_FRAME_NAME_LENGTH } from '../../src/core/format/spec'
import { bakePlayerMD2, guessPlayerClips } from '../../src/three/convert/bakePlayer'
import { findClip, fitFrameNames, frameBases, listClips, shortClipName } from '../../src/three/convert/clipNames'
import { thrown } from '../support/errors'
import { drawnFrame } from '../support/skinnedReference'
import { buildRig } from '../../stories/support/rig'

/** Each row: the clips a character has, and the clips a person picks for some animations (undefined: none). */
const CHOICES: [string[], Record<string, string | undefined>][] = [
  [
    ['CharacterArmature|Idle_Gun_Pointing', 'CharacterArmature|Idle', 'CharacterArmature|Punch', 'CharacterArmature|Shoot'],
    { stand: 'CharacterArmature|Idle', attack: 'CharacterArmature|Shoot', point: 'CharacterArmature|Idle_Gun_Pointing' },
  ],
  [['Idle_Gun_Pointing', 'Idle_Neutral', 'Run_swordAttack', 'Run'], { stand: 'Idle_Neutral', run: 'Run', attack: 'Run_swordAttack' }],
  [['Punch', 'Sword_Slash', 'Run_swordAttack'], { attack: 'Sword_Slash', run: 'Run_swordAttack' }],
  [['Punch', 'Run_swordAttack'], { attack: 'Punch' }],
  [
    ['Walking', 'Running', 'WalkJump', 'Jump', 'Death', 'Dance', 'Wave'],
    { run: 'Running', jump: 'Jump', death1: 'Death', taunt: 'Dance', wave: 'Wave' },
  ],
  [['HitReact', 'Jump_Idle', 'Jump', 'Idle'], { pain1: 'HitReact', jump: 'Jump', stand: 'Idle' }],
  [['Crouch_Idle', 'Crouch_Walk', 'Idle', 'Walk'], { crouch_stand: 'Crouch_Idle', crouch_walk: 'Crouch_Walk', stand: 'Idle', run: 'Walk' }],
  [['Duck', 'Crawl'], { crouch_stand: 'Duck', crouch_walk: 'Crawl', stand: undefined, run: undefined }],
  [['Armature|mixamo.com|Layer0'], { stand: undefined, run: undefined }],
]

describe('guessPlayerClips', () => {
  it.each(CHOICES)('%j', (clips, wanted) => {
    const chosen = guessPlayerClips(clips)
    for (const [animation, clip] of Object.entries(wanted)) expect(chosen[animation as keyof typeof chosen], animation).toBe(clip)
  })
})

describe('clip and frame names', () => {
  it('a clip is its name after Blender’s last |, and named by it or by its index', () => {
    expect(shortClipName('CharacterArmature|Death')).toBe('Death')
    expect(shortClipName('Armature|mixamo.com|Layer0')).toBe('Layer0')
    expect(shortClipName('Walk')).toBe('Walk')
    expect(shortClipName('Armature|')).toBe('Armature|')
    const clips = [new AnimationClip('CharacterArmature|Run', 1, []), new AnimationClip('', 1, [])]
    expect(findClip(clips, 'Run')).toBe(clips[0])
    expect(findClip(clips, '1')).toBe(clips[1])
    expect(findClip(clips, 'Walk')).toBeUndefined()
    expect(listClips(clips)).toBe(`"CharacterArmature|Run", 1 (unnamed)`)
    expect(listClips([])).toBe('none')
  })

  it('frame name bases fit 15 bytes with the frame number and stay apart', () => {
    const bases = frameBases(
      ['CharacterArmature|Death', 'CharacterArmature|Idle', 'Idle_Gun_Pointing_Left', 'Idle_Gun_Pointing_Right', 'Run2'],
      [5, 40, 3, 3, 120],
    )
    expect(bases).toEqual(['Death', 'Idle', 'Idle_Gun_Poin', 'Idle_Gun_P_2_', 'Run2_'])
    for (const [i, base] of bases.entries())
      expect(base.length + Math.max(2, String([5, 40, 3, 3, 120][i]).length)).toBeLessThanOrEqual(MAX_FRAME_NAME_LENGTH)
  })

  it('morph target names past 15 bytes are cut as clip names are, each animation’s prefix its own', () => {
    const { names, cut } = fitFrameNames([
      'stand01',
      'KeyAction|run001',
      'Idle_Gun_Pointing_001',
      'Idle_Gun_Pointing_002',
      'Idle_Gun_Pointed_001',
      'very long name with spaces',
    ])
    expect(names).toEqual(['stand01', 'run001', 'Idle_Gun_Poi001', 'Idle_Gun_Poi002', 'Idle_Gun_2_001', 'very_long_na'])
    for (const name of names) expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(MAX_FRAME_NAME_LENGTH)
    expect(cut[0]).toEqual({ from: 'KeyAction|run001', to: 'run001' })
    expect(cut).toHaveLength(5)
  })
})

describe('bakePlayerMD2 stand-ins', () => {
  it('an unnamed clip is listed by its index and named by it (run=0)', () => {
    const { scene, clips } = buildRig()
    const unnamed = clips.find((clip) => clip.name === 'Walk')!.clone()
    unnamed.name = ''
    const error = thrown(() => bakePlayerMD2(scene, [unnamed]))
    expect(error.message).toMatch(/no clip for any player animation: .*run=0.*the clips: 0 \(unnamed\)/)
    const baked = bakePlayerMD2(scene, [unnamed], { clips: { run: '0' } })
    expect(baked.model.header.numFrames).toBe(198)
    expect(baked.filled).toContainEqual({ animation: 'stand', from: 'run', how: 'first pose' })
  })

  it('without a death clip the deaths fall from the stand’s first pose to the floor', () => {
    const { scene, clips } = buildRig()
    const idle = clips.find((clip) => clip.name === 'Idle Breath')!
    // A clip that turns nothing the fall could be mistaken for.
    const still = new AnimationClip('Idle', 1, [
      new QuaternionKeyframeTrack(
        'spine.quaternion',
        [0, 1],
        [...new Quaternion().toArray(), ...new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.1).toArray()],
      ),
    ])
    const baked = bakePlayerMD2(scene, [still, idle], { clips: { stand: 'Idle' }, scale: 32 })
    expect(baked.filled.filter((fill) => fill.how === 'fall').map((fill) => fill.animation)).toEqual([
      'crouch_death',
      'death1',
      'death2',
      'death3',
    ])
    const height = (f: number) => {
      const frame = drawnFrame(baked.model, f)
      let [low, high] = [Infinity, -Infinity]
      for (let v = 1; v < frame.length; v += 3) [low, high] = [Math.min(low, frame[v]!), Math.max(high, frame[v]!)]
      return [low, high - low]
    }
    const [floor, standing] = height(0)
    // death1 is frames 178–183: upright at first, lower each frame, lying on the floor at the end.
    expect(height(178)[1]).toBeCloseTo(standing!, 0)
    // Tipping over backwards: no taller than standing (a body's depth turning up adds a little), lower by halfway.
    for (let f = 179; f <= 183; f++) expect(height(f)[1]).toBeLessThan(standing! * 1.05)
    expect(height(181)[1]).toBeLessThan(standing! * 0.9)
    expect(height(183)[1]).toBeLessThan(standing! / 2)
    expect(height(183)[0]).toBeCloseTo(floor!, 0)
  })
})

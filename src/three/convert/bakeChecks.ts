import { PropertyBinding, type AnimationClip, type Object3D } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { printable } from '../../core/printable.js'

function shown(value: unknown): string {
  if (typeof value === 'string') return printable(JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value))
  if (Array.isArray(value))
    return `an array holding ${value.length === 0 ? 'nothing' : shown(value.find((item) => typeof item !== 'string'))}`
  if (typeof value === 'function') return 'a function'
  if (value === null || typeof value !== 'object') return String(value)
  return 'an object'
}

function bad(message: string): never {
  throw new MD2Error('BAD_ARGUMENT', message, { section: 'options' })
}

const isNames = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string')
const isCount = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 1

/**
 * The deepest scene a bake takes. three.js walks a scene by recursion (`traverse`, `updateMatrixWorld`, a track's
 * node looked up by name), which overflows the stack some ten thousand levels down; real scenes (a skeleton of
 * a few dozen bones) are far shallower.
 */
export const MAX_SCENE_DEPTH = 1000

/**
 * How deep the scene's tree goes, walked with a stack of its own (a deep tree cannot overflow it); a `BAD_ARGUMENT`
 * once past `MAX_SCENE_DEPTH`, and for a node met twice (a child array edited into a cycle).
 */
function checkSceneDepth(scene: Object3D): void {
  const stack: [Object3D, number][] = [[scene, 0]]
  const seen = new Set<Object3D>()
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > MAX_SCENE_DEPTH)
      bad(`the scene is more than ${MAX_SCENE_DEPTH} nodes deep: three.js walks a scene recursively, and cannot bake one this deep`)
    if (seen.has(node)) bad(`the scene holds node ${shown(node.name)} twice: its tree has a cycle`)
    seen.add(node)
    const children: unknown = node.children
    if (!Array.isArray(children)) bad(`node ${shown(node.name)}'s children are not an array`)
    for (const child of children as unknown[]) {
      if (!(child && typeof child === 'object' && (child as Object3D).isObject3D))
        bad(`node ${shown(node.name)} has a child that is not a three.js Object3D: ${shown(child)}`)
      stack.push([child as Object3D, depth + 1])
    }
  }
}

/**
 * `bakeMD2`'s arguments, as loose JavaScript may pass them: each wrong one a `BAD_ARGUMENT` naming the
 * option, what it takes and what it got (a string where a list is expected is not a list of letters).
 */
export function checkBakeArguments(scene: unknown, clips: unknown, options: unknown): void {
  if (!(scene && typeof scene === 'object' && (scene as Object3D).isObject3D))
    bad(`the scene takes a three.js Object3D (gltf.scene), got ${shown(scene)}`)
  checkSceneDepth(scene as Object3D)
  if (!(Array.isArray(clips) && clips.every((clip) => clip && Array.isArray((clip as AnimationClip).tracks))))
    bad(`the clips take an array of three.js AnimationClips (gltf.animations), got ${shown(clips)}`)
  if (options === undefined) return
  if (!options || typeof options !== 'object') bad(`options takes an object, got ${shown(options)}`)
  const o = options as Record<string, unknown>
  const numbers: [string, string][] = [
    ['fps', 'a rate from above 0 to 1000'],
    ['scale', 'a positive number'],
  ]
  for (const [name, takes] of numbers)
    if (o[name] !== undefined && typeof o[name] !== 'number') bad(`${name} takes ${takes}, got ${shown(o[name])}`)
  for (const name of ['clips', 'meshes', 'excludeMeshes']) {
    if (o[name] === undefined) continue
    if (!isNames(o[name])) bad(`${name} takes an array of ${name === 'clips' ? 'clip' : 'mesh'} names, got ${shown(o[name])}`)
    if ((o[name] as string[]).length === 0) bad(`${name} is empty: name at least one, or leave ${name} out to bake every one`)
  }
  if (o.skins !== undefined && !isNames(o.skins)) bad(`skins takes an array of skin paths, got ${shown(o.skins)}`)
  for (const name of ['skinWidth', 'skinHeight'])
    if (o[name] !== undefined && !isCount(o[name])) bad(`${name} takes a whole number of texels from 1, got ${shown(o[name])}`)
  if (o.name !== undefined && typeof o.name !== 'string') bad(`name takes a string, got ${shown(o.name)}`)
  if (o.onWarning !== undefined && typeof o.onWarning !== 'function') bad(`onWarning takes a function, got ${shown(o.onWarning)}`)
  if (o.simplify !== undefined && typeof o.simplify !== 'boolean' && !isCount(o.simplify))
    bad(`simplify takes true (fit MD2's limits) or a triangle count (a whole number from 1), got ${shown(o.simplify)}`)
}

const SKIN_FORMATS = ['pcx', 'tga', 'png']

/** `bakePlayerMD2`'s arguments: `bakeMD2`'s, and `clips` an object naming a clip for each player animation. */
export function checkPlayerArguments(scene: unknown, clips: unknown, options: unknown): void {
  if (options === null) bad('options takes an object, got null')
  const { clips: chosen, ...rest } = (options ?? {}) as Record<string, unknown>
  checkBakeArguments(scene, clips, typeof options === 'object' ? rest : options)
  if (chosen === undefined) return
  if (!chosen || typeof chosen !== 'object' || Array.isArray(chosen))
    bad(`clips takes an object naming a clip for each player animation ({ stand: 'Idle', run: 'Run' }), got ${shown(chosen)}`)
  for (const [animation, clip] of Object.entries(chosen))
    if (typeof clip !== 'string' && clip !== undefined) bad(`clips.${printable(animation)} takes a clip's name, got ${shown(clip)}`)
}

/** A `DecodedImage` a caller hands in: whole sizes from 1, and `width × height × 4` bytes of RGBA. */
function checkImage(name: string, image: unknown): void {
  const { width, height, data } = (image && typeof image === 'object' ? image : {}) as Record<string, unknown>
  if (!image || typeof image !== 'object' || !isCount(width) || !isCount(height))
    bad(`${name} takes a decoded image ({ width, height, data: RGBA bytes }), got ${shown(image)}`)
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray))
    bad(`${name}.data takes the image's RGBA bytes (a Uint8Array), got ${shown(data)}`)
  const want = (width as number) * (height as number) * 4
  if ((data as Uint8Array).length !== want)
    bad(`${name}.data holds ${(data as Uint8Array).length} bytes; ${width as number} × ${height as number} RGBA takes ${want}`)
}

/**
 * `convertToMD2`'s arguments, before any work: options an object with the skin's name, a format it writes, a
 * skin of the caller's that is an image, a player and a weapon as they are taken; then `bakeMD2`'s (or a player's).
 */
export function checkConvertArguments(scene: unknown, clips: unknown, options: unknown): void {
  if (!options || typeof options !== 'object' || Array.isArray(options))
    bad(`options takes an object with at least the skin's name ({ skinName: 'fox.pcx' }), got ${shown(options)}`)
  const { skinName, skinFormat, dither, skin, player, weapon, ...rest } = options as Record<string, unknown>
  if (typeof skinName !== 'string' || skinName === '')
    bad(`skinName takes the skin's name stored in the model ('models/monsters/fox/fox.pcx'), got ${shown(skinName)}`)
  if (skinFormat !== undefined && !SKIN_FORMATS.includes(skinFormat as string))
    bad(`skinFormat takes ${SKIN_FORMATS.map((format) => `'${format}'`).join(', ')}, got ${shown(skinFormat)}`)
  if (dither !== undefined && typeof dither !== 'boolean') bad(`dither takes true or false, got ${shown(dither)}`)
  if (skin !== undefined) checkImage('skin', skin)
  if (player !== undefined && player !== true && !(player && typeof player === 'object' && !Array.isArray(player)))
    bad(`player takes true (clips matched by name) or an object naming a clip for each animation, got ${shown(player)}`)
  if (weapon !== undefined) {
    const { meshes, skinName: weaponSkin } = (weapon && typeof weapon === 'object' ? weapon : {}) as Record<string, unknown>
    if (!weapon || typeof weapon !== 'object' || !isNames(meshes) || (meshes as string[]).length === 0 || typeof weaponSkin !== 'string')
      bad(`weapon takes { meshes: [names], skinName }, got ${shown(weapon)}`)
  }
  // A player's table sets the rate and the clips' order: convertToMD2 leaves its own `fps` and `clips` out.
  const { fps: _fps, clips: _clips, ...playerRest } = rest
  if (player) checkPlayerArguments(scene, clips, { ...playerRest, ...(player === true ? {} : { clips: player }) })
  else checkBakeArguments(scene, clips, rest)
}

const MISSING_SHOWN = 8
const VALUE_SIZES: Record<string, number> = { position: 3, scale: 3, quaternion: 4 }

/**
 * The clips to bake, checked before any sampling: key times finite and in order, key values finite, and
 * every track's node in the scene (matched by name, as three's mixer binds it: a clip from another file
 * fits when its skeleton's bone names are the scene's). Non-finite numbers are `BAD_VALUE`; a node the scene
 * lacks is `BAD_ARGUMENT` naming the missing ones, since three's mixer would silently leave them still.
 */
export function checkClips(scene: Object3D, clips: readonly AnimationClip[]): void {
  const nodes = new Map<string, Object3D | undefined>()
  for (const clip of clips) {
    const where = `clip "${printable(clip.name)}"`
    if (!(Number.isFinite(clip.duration) && clip.duration >= 0))
      throw new MD2Error('BAD_VALUE', `${where} lasts ${clip.duration} s`, { section: 'clips' })
    const missing = new Set<string>()
    for (const track of clip.tracks) {
      const what = `${where}, track "${printable(track.name)}"`
      const times = track.times as ArrayLike<number>
      for (let k = 0; k < times.length; k++) {
        if (!Number.isFinite(times[k])) throw new MD2Error('BAD_VALUE', `${what}: key ${k}'s time is ${times[k]}`, { section: 'clips' })
        if (k > 0 && times[k]! < times[k - 1]!)
          throw new MD2Error('BAD_VALUE', `${what}: key ${k}'s time ${times[k]} comes before key ${k - 1}'s ${times[k - 1]}`, {
            section: 'clips',
          })
      }
      const values = track.values as ArrayLike<number>
      // three's interpolants need keys, and a whole number of values per key; a glTF CUBICSPLINE key holds three
      // (in-tangent, value, out-tangent), and a fraction of one loops its interpolant for ever.
      const spline = (track as { createInterpolant?: { isInterpolantFactoryMethodGLTFCubicSpline?: boolean } }).createInterpolant
        ?.isInterpolantFactoryMethodGLTFCubicSpline
      const size = times.length > 0 ? values.length / times.length / (spline ? 3 : 1) : 0
      if (!(times.length > 0 && size >= 1 && Number.isInteger(size)))
        throw new MD2Error(
          'BAD_VALUE',
          `${what}: ${times.length} key times for ${values.length} values${spline ? ' (cubic spline: three values a key)' : ''}`,
          { section: 'clips' },
        )
      for (let k = 0; k < values.length; k++)
        if (typeof values[k] === 'number' && !Number.isFinite(values[k]))
          throw new MD2Error('BAD_VALUE', `${what}: value ${k} is ${values[k]}`, { section: 'clips' })
      let parsed: { nodeName?: string; propertyName: string; propertyIndex?: string }
      try {
        parsed = PropertyBinding.parseTrackName(track.name)
      } catch {
        throw new MD2Error('BAD_ARGUMENT', `${what}: three.js cannot read that track name`, { section: 'clips' })
      }
      const node = parsed.nodeName ?? ''
      if (!nodes.has(node)) nodes.set(node, node === '' ? scene : ((PropertyBinding.findNode(scene, node) as Object3D | null) ?? undefined))
      const target = nodes.get(node)
      if (!target) missing.add(node)
      // Values per key as the property takes them: a short quaternion would be read past its end.
      const want =
        parsed.propertyName === 'morphTargetInfluences' && parsed.propertyIndex === undefined
          ? (target as { morphTargetInfluences?: number[] } | undefined)?.morphTargetInfluences?.length
          : VALUE_SIZES[parsed.propertyName]
      if (want !== undefined && target && size !== want)
        throw new MD2Error('BAD_VALUE', `${what}: ${size} values per key, ${parsed.propertyName} takes ${want}`, { section: 'clips' })
    }
    if (missing.size > 0) {
      const names = [...missing]
      const listed = names.slice(0, MISSING_SHOWN).map((name) => `"${printable(name)}"`)
      if (names.length > MISSING_SHOWN) listed.push(`and ${names.length - MISSING_SHOWN} more`)
      throw new MD2Error(
        'BAD_ARGUMENT',
        `${where} animates ${names.length} node${names.length === 1 ? '' : 's'} the scene does not have: ${listed.join(', ')} ` +
          `(its skeleton's bone names are not the scene's)`,
        { section: 'clips' },
      )
    }
  }
}

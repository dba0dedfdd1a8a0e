import { MD2Error } from '../core/MD2Error.js'
import type { MD2ModelData } from '../core/format/types.js'
import { warnOnce } from '../core/warnOnce.js'

/**
 * Each prop that takes made or parsed data: the key its value has (or `[]`, an array), and what makes it.
 */
const PARSED_PROPS = {
  model: ['frameData', 'useMD2(url) or parseMD2(bytes) (or give `url`)'],
  tags: ['transforms', 'useMD2Tags(url) or parseMD2Tags(bytes)'],
  controller: ['pose', 'useMD2Animation(model), usePlayerAnimation() or a class with a `pose`'],
  animationTable: [[], 'parseAnimationTable(text): [{ name, start, end, fps? }]'],
  files: [[], "a listing: ['tris.md2', 'skin.pcx']"],
  // A string, a number or null is a skin's URL, name, index or none; an object must be a texture.
  skin: ['isTexture', 'a URL, a name, an index, null, or a three.js texture loader'],
} as const

export type ParsedProp = keyof typeof PARSED_PROPS

/**
 * In development builds, a component's props as they enter: a prop that takes made or parsed data given
 * something else (a URL where parsed tags go, the old API) is refused with an `MD2Error` `BAD_ARGUMENT`
 * naming the component, the prop, what it got and what makes the right value, instead of a `TypeError`
 * from deep inside or nothing at all; a prop removed in 0.x warns once, naming its replacement. The
 * mistakes are of code, found before it ships: each call is written `if (process.env.NODE_ENV !==
 * 'production')`, which bundlers fold away, with this module, in production builds.
 */
export function checkProps(component: string, props: object, model?: unknown): void {
  const given = props as Partial<Record<ParsedProp, unknown>>
  for (const prop of Object.keys(PARSED_PROPS) as ParsedProp[]) {
    const value = prop === 'model' ? model : given[prop]
    const [key, maker] = PARSED_PROPS[prop]
    if (value === undefined || value === null) continue
    const valid = typeof key === 'string' ? (typeof value === 'object' ? key in value : prop === 'skin') : Array.isArray(value)
    if (valid) continue
    const got = typeof value === 'string' ? `the string ${JSON.stringify(value)}` : Array.isArray(value) ? 'an array' : String(value)
    throw new MD2Error('BAD_ARGUMENT', `<${component} ${prop}> takes what ${maker} makes, not ${got}`)
  }
  warnRemovedProps(component, props)
  warnMisplacedProps(component, props)
  warnBadSize(component, props)
}

/**
 * Warns once per component, prop and value of a `height` that is not a positive number of world units or an
 * `origin` that is neither `"feet"` nor `"quake2"`, and drops it: the model is then drawn at its own size, from
 * Quake II's origin (`fitStanding` ignores such values in production builds too).
 */
function warnBadSize(component: string, props: object): void {
  const { height, origin } = props as { height?: unknown; origin?: unknown }
  if (height !== undefined && !(typeof height === 'number' && height > 0 && Number.isFinite(height))) {
    warnOnce(
      `size:${component}:height:${String(height)}`,
      `<${component} height={${typeof height === 'string' ? JSON.stringify(height) : String(height)}}> is not a positive number of world units; drawing the model at its own size`,
    )
    drop(props, 'height')
  }
  if (origin !== undefined && origin !== 'feet' && origin !== 'quake2') {
    warnOnce(
      `size:${component}:origin:${String(origin)}`,
      `<${component} origin=${JSON.stringify(origin)}> is "feet" or "quake2"; using "quake2" (the file's origin)`,
    )
    drop(props, 'origin')
  }
}

const ANIMATION =
  'animation animationTable fps speed playing loop reverse interpolate frame crossfade controller controllerRef onFrame onLoop onEnd onAnimationEnd'
const MODEL = `url timeout files model skin material wireframe color opacity animateOffscreen sync tags onSkinError ${ANIMATION}`

/**
 * The props of the package's own that each component takes (besides a group's): a prop one of them takes
 * given to another that does not is a mistake of place (`<MD2Instances animation>`), warned of, naming the
 * component it belongs on. In the order a prop's home is looked for.
 */
const TAKES: Record<string, string> = {
  MD2Model: `${MODEL} height origin`,
  MD2Player: `path weapon height origin fallbackWeapon onWeaponError timeout files skin material wireframe color opacity animateOffscreen onSkinError ${ANIMATION}`,
  MD2Instances: 'url model limit skin opacity decode pose sync tag tags files timeout onSkinError height origin',
  MD2Instance: ANIMATION,
  MD2ViewWeapon: `hand ${MODEL}`,
  MD2Attach: 'tag',
}

/** Where a component's misplaced props are looked for first: its sibling's. */
const SIBLING: Record<string, string> = { MD2Instances: 'MD2Instance', MD2Instance: 'MD2Instances' }

/** Warns once per component and prop for each prop it does not take that another of the package's does, naming that one. */
export function warnMisplacedProps(component: string, props: object): void {
  const own = TAKES[component]!.split(' ')
  for (const prop of Object.keys(props)) {
    if (own.includes(prop) || (props as Record<string, unknown>)[prop] === undefined) continue
    const home = [SIBLING[component], ...Object.keys(TAKES)].find((other) => other && TAKES[other]!.split(' ').includes(prop))
    if (!home) continue
    const where =
      component === 'MD2Player' && (prop === 'url' || prop === 'model')
        ? `<MD2Player> takes \`path\` (the player's folder, as "/players/ogro/"), not \`${prop}\``
        : `\`${prop}\` belongs on <${home}>`
    warnOnce(`misplaced:${component}:${prop}`, `<${component} ${prop}> does nothing here: ${where}`)
    drop(props, prop)
  }
}

/**
 * A prop warned of leaves the props a component passes on (its rest, never frozen; React's own props are):
 * the `<MD2Model>` an `<MD2Player>` draws its body with neither warns of it again nor takes it.
 */
function drop(props: object, prop: string): void {
  if (!Object.isFrozen(props)) Reflect.deleteProperty(props, prop)
}

/** A controller that plays only models with enough frames (`usePlayerAnimation`'s: a Quake II player's 198). */
export function checkPlayerModel(model: MD2ModelData, frames: number, user: string): void {
  if (model.header.numFrames >= frames) return
  throw new MD2Error(
    'BAD_ARGUMENT',
    `${user} plays a Quake II player model (${frames} frames); ${model.name ?? 'this model'} has ${model.header.numFrames}`,
  )
}

/** A controller that needs more frames than `model` has (a player's rules on a weapon pickup): development builds check. */
export function checkControllerFrames(model: MD2ModelData, controller: { readonly minFrames?: number } | undefined): void {
  if (controller?.minFrames !== undefined) checkPlayerModel(model, controller.minFrames, '<MD2Model controller> (usePlayerAnimation)')
}

/** A prop a component no longer takes, and what replaced it. */
export interface RemovedProp {
  component: string
  props: readonly string[]
  /** What to write instead. */
  now: string
}

/**
 * The props removed in 0.x, by component: the CHANGELOG's "Renamed and moved" table lists each row
 * (a test holds the two together). A removed prop would otherwise land on the root group unnoticed.
 */
export const REMOVED_PROPS: readonly RemovedProp[] = [
  {
    component: 'MD2Model',
    props: ['lighting', 'shadelight', 'minlight', 'fullbright', 'glow'],
    now: '<MD2Quake2Lighting shadelight minlight fullbright glow /> inside the model',
  },
  { component: 'MD2Model', props: ['shell'], now: '<MD2Shell color={…} /> inside the model' },
  { component: 'MD2Model', props: ['shadow', 'shadowFloor'], now: '<MD2BlobShadow floor={…} /> inside the model' },
  { component: 'MD2Model', props: ['raycastExtras'], now: '`pickable` on <MD2Shell> / <MD2BlobShadow>' },
  { component: 'MD2Model', props: ['bounds'], now: '<MD2PoseBounds /> inside the model' },
  {
    component: 'MD2Player',
    props: ['lighting', 'shadelight', 'minlight', 'fullbright', 'glow'],
    now: '<MD2Quake2Lighting … /> inside the player (it lights the body and the weapon)',
  },
  { component: 'MD2Player', props: ['shell'], now: '<MD2Shell color={…} /> inside the player (on the body and the weapon)' },
  { component: 'MD2Player', props: ['shadow', 'shadowFloor'], now: '<MD2BlobShadow floor={…} /> inside the player' },
  {
    component: 'MD2Instances',
    props: ['lighting', 'shadelight', 'minlight', 'fullbright', 'glow'],
    now: '<MD2Quake2Lighting … /> inside <MD2Instances> (every instance)',
  },
  { component: 'MD2Instances', props: ['shell'], now: '<MD2Shell color={…} /> inside <MD2Instances> (every instance)' },
  { component: 'MD2Instances', props: ['shadow', 'shadowFloor'], now: '<MD2BlobShadow floor={…} /> inside <MD2Instances>' },
  { component: 'MD2Instance', props: ['shell'], now: '<MD2Shell color={…} /> inside the <MD2Instance> (`color={[]}`: none)' },
  { component: 'MD2Instance', props: ['shadow'], now: '<MD2BlobShadow /> inside the <MD2Instance>' },
]

/** Warns once per component and prop for each removed prop given, naming its replacement (`checkProps`, in development). */
export function warnRemovedProps(component: string, props: object): void {
  for (const row of REMOVED_PROPS) {
    if (row.component !== component) continue
    for (const prop of row.props) {
      if (prop in props && (props as Record<string, unknown>)[prop] !== undefined) {
        warnOnce(`removed:${component}:${prop}`, `<${component} ${prop}> was removed in 0.x and does nothing; use ${row.now}`)
        drop(props, prop)
      }
    }
  }
}

import { warnOnce } from '../core/warnOnce.js'

// Bundlers replace `process.env.NODE_ENV` with a string, so production builds drop the check below.
declare const process: { env: { NODE_ENV?: string } }

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

/** Warns once per component and prop, in development, for each removed prop given, naming its replacement. */
export function warnRemovedProps(component: string, props: object): void {
  if (typeof process === 'undefined' || process.env.NODE_ENV === 'production') return
  for (const row of REMOVED_PROPS) {
    if (row.component !== component) continue
    for (const prop of row.props) {
      if (prop in props && (props as Record<string, unknown>)[prop] !== undefined)
        warnOnce(`removed:${component}:${prop}`, `<${component} ${prop}> was removed in 0.x and does nothing; use ${row.now}`)
    }
  }
}

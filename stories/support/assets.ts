/**
 * URLs of the bundled models and skins. `.storybook/main.ts` serves `assets/` at `/models` and
 * `stories/fixtures/` at `/fixtures` (staticDirs; the vitest plugin serves the same directories).
 */
const Q2 = '/models/quake2'
const UFO = '/models/ufoai'

export const OGRO = `${Q2}/ogro/tris.MD2`
export const OGRO_WEAPON = `${Q2}/ogro/weapon.md2`
/** The skin `weapon.md2` names (`players/ogro/weapon.pcx`): what `<MD2Model url={OGRO_WEAPON}>` shows by default. */
export const OGRO_WEAPON_SKIN = `${Q2}/ogro/weapon.pcx`
/**
 * Ogro's original 8-bit PCX skins: the 13 that `tris.MD2` names (igdosh first, its default) and the
 * three it does not name.
 */
export const OGRO_SKINS: Record<string, string> = Object.fromEntries(
  [
    ...['igdosh', 'arboshak', 'darkam', 'freedom', 'gib', 'gorash', 'gordogh', 'grok', 'khorne', 'nabogro', 'slaanesh', 'ctf_r', 'ctf_b'],
    ...['ogrobase', 'sharokh', 'cloth'],
  ].map((name) => [name, `${Q2}/ogro/${name}.pcx`] as const),
)

export const RATAMAHATTA = `${Q2}/ratamahatta/tris.md2`
export const RATAMAHATTA_WEAPON = `${Q2}/ratamahatta/weapon.MD2`
/** The skin `weapon.MD2` names (`players/Ratamahatta/weapon.pcx`), found beside it by default. */
export const RATAMAHATTA_WEAPON_SKIN = `${Q2}/ratamahatta/weapon.pcx`
/** Ratamahatta's original PCX skins (his `tris.md2` names none), file names as shipped (mixed case). */
export const RATAMAHATTA_SKINS: Record<string, string> = Object.fromEntries(
  ['Ratamahatta', 'Gearwhore', 'ctf_b', 'ctf_r', 'dead', 'jaws'].map(
    (name) => [name.toLowerCase(), `${Q2}/ratamahatta/${name}.pcx`] as const,
  ),
)

export const SOLDIER = `${UFO}/soldier-male/body.md2`
export const SOLDIER_SKIN = `${UFO}/soldier-male/body.png`
/** The soldier's tags: where the head and weapons go, every frame. */
export const SOLDIER_TAGS = `${UFO}/soldier-male/body.tag`
/** A head for the soldier (one frame; it names its skin `.head01a`, an image of any type beside it). */
export const SOLDIER_HEAD = `${UFO}/soldier-male/head01.md2`
export const SOLDIER_HEAD_SKIN = `${UFO}/soldier-male/head01a.png`
export const BLOODSPIDER = `${UFO}/bloodspider/bloodspider.md2`
export const BLOODSPIDER_SKINS: Record<string, string> = {
  bloodspider: `${UFO}/bloodspider/bloodspider.jpg`,
  bloodspider2: `${UFO}/bloodspider/bloodspider2.png`,
}
export const WC = `${UFO}/wc/wc.md2`
export const WC_SKINS: Record<string, string> = { wc: `${UFO}/wc/wc.png`, wc2: `${UFO}/wc/wc2.png` }

/** A real model cut short (`head -c 20000`), see stories/fixtures/README.md. */
export const TRUNCATED_MODEL = '/fixtures/ratamahatta-truncated.md2'
/** Nothing is served here. */
export const MISSING_MODEL = '/models/quake2/nobody/tris.md2'

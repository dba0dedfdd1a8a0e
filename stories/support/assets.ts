/**
 * URLs of the bundled models and skins. `.storybook/main.ts` serves `assets/` at `/models` and
 * `stories/fixtures/` at `/fixtures` (staticDirs; the vitest plugin serves the same directories).
 */
const Q2 = '/models/quake2'
const UFO = '/models/ufoai'

export const OGRO = `${Q2}/ogro/tris.MD2`
export const OGRO_WEAPON = `${Q2}/ogro/weapon.md2`
export const OGRO_WEAPON_SKIN = `${Q2}/ogro/png/weapon.jpg`
/** The PNG conversions of Ogro's PCX skins (PCX decoding comes later). */
export const OGRO_SKINS: Record<string, string> = {
  ...Object.fromEntries(
    ['igdosh', 'arboshak', 'ctf_b', 'ctf_r', 'darkam', 'freedom', 'gib', 'gordogh', 'khorne', 'nabogro', 'ogrobase', 'sharokh'].map(
      (name) => [name, `${Q2}/ogro/png/${name}.png`],
    ),
  ),
  grok: `${Q2}/ogro/png/grok.jpg`,
}

export const RATAMAHATTA = `${Q2}/ratamahatta/tris.md2`
export const RATAMAHATTA_WEAPON = `${Q2}/ratamahatta/weapon.MD2`
export const RATAMAHATTA_WEAPON_SKIN = `${Q2}/ratamahatta/png/weapon.png`
export const RATAMAHATTA_SKINS: Record<string, string> = Object.fromEntries(
  ['ratamahatta', 'ctf_b', 'ctf_r', 'dead', 'gearwhore'].map((name) => [name, `${Q2}/ratamahatta/png/${name}.png`] as const),
)

export const SOLDIER = `${UFO}/soldier-male/body.md2`
export const SOLDIER_SKIN = `${UFO}/soldier-male/body.png`
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

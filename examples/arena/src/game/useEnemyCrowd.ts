import { useLayoutEffect } from 'react'
import { followCrowd, useMD2, useMD2Crowd, useMD2Skin, type MD2Crowd } from 'react-three-md2'
import { RATAMAHATTA, RATAMAHATTA_SKIN, RATAMAHATTA_WEAPON, RATAMAHATTA_WEAPON_SKIN } from './world'

/** Quake II's own lighting (the light table by yaw, a shadelight), as the game drew its monsters. */
const LOOK = { lighting: 'quake2', shadelight: 0.9 } as const

/**
 * The enemies' two crowds: the bodies, which the game drives (`setTransform`, `play`), and their
 * weapons, a second crowd that follows the first (`followCrowd`): each weapon takes its body's place and frames on
 * every update, as `<MD2Model sync>` does for one player, in one more draw call. Returns both: the
 * bodies for the game, the weapons to count what is drawn.
 */
export function useEnemyCrowd(count: number): { bodies: MD2Crowd; weapons: MD2Crowd } {
  const limit = Math.max(count, 1)
  // Quake II's blob shadows on the arena's floor (y = 0), all in one more draw; the weapons cast theirs too.
  const bodies = useMD2Crowd(useMD2(RATAMAHATTA), {
    ...LOOK,
    limit,
    map: useMD2Skin(RATAMAHATTA_SKIN),
    shadow: 'blob',
    shadowFloor: 0,
  })
  const weapons = useMD2Crowd(useMD2(RATAMAHATTA_WEAPON), { ...LOOK, limit, map: useMD2Skin(RATAMAHATTA_WEAPON_SKIN) })
  useLayoutEffect(() => {
    // The weapons crowd is added to the bodies' (their space), drawn and culled with it.
    followCrowd(weapons, bodies)
    return () => followCrowd(weapons, null)
  }, [weapons, bodies])
  return { bodies, weapons }
}

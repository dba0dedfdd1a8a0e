import { createContext, useContext, useLayoutEffect, useMemo, useState } from 'react'
import type { MD2ModelData } from '../../core/format/types.js'
import { MD2Crowd } from '../../three/crowd/MD2Crowd.js'
import {
  MD2LookContext,
  type CrowdLookSupport,
  type CrowdWorn,
  type MD2LookOwner,
  type MD2WornLook,
  type WornLooks,
} from '../MD2ModelContext.js'

/** The Quake II light an `<MD2Instances>` wears, for the crowds that follow it. */
const CrowdLightContext = createContext<MD2WornLook['options'] | undefined>(undefined)

/** What the looks inside a crowd or an instance dress (`wear` sets `worn`). */
function useLookOwner(component: string, model: MD2ModelData, setWorn: CrowdWorn['setWorn']): MD2LookOwner {
  // The crowd's light (its own, or its leader's): an instance's light is only a shadelight, in a crowd lit so.
  const lighting = useContext(CrowdLightContext)?.lighting
  return useMemo<MD2LookOwner>(
    () => ({
      component,
      model,
      lighting,
      wear({ kind, options }) {
        setWorn((shown) => ({ ...shown, [kind]: options }))
        return () => setWorn((shown) => (shown[kind] === options ? { ...shown, [kind]: undefined } : shown))
      },
    }),
    [component, model, lighting, setWorn],
  )
}

/**
 * How crowds wear looks (`<MD2Shell>`, `<MD2BlobShadow>`, `<MD2Quake2Lighting>` inside `<MD2Instances>` or an
 * `<MD2Instance>`), given to them by the looks' own modules (`useLayerOwner.ts`), with the crowd class that
 * draws them (`MD2Crowd`): a crowd in an app that imports no look ships none of it.
 */
export const crowdLooks: CrowdLookSupport = {
  Crowd: MD2Crowd,
  useCrowdLooks(follows) {
    const [worn, setWorn] = useState<WornLooks>({})
    // A follower is lit as its leader is (Quake II lights a weapon as its bearer) unless it wears its own.
    const leaderLight = useContext(CrowdLightContext)
    const light = worn.light ?? (follows ? leaderLight : undefined)
    return { options: { ...worn.shell, ...worn.shadow, ...light }, light, setWorn }
  },
  CrowdLooks({ crowd, worn, children }) {
    const owner = useLookOwner('<MD2Instances>', crowd.model, worn.setWorn)
    return (
      <CrowdLightContext.Provider value={worn.light}>
        <MD2LookContext.Provider value={owner}>{children}</MD2LookContext.Provider>
      </CrowdLightContext.Provider>
    )
  },
  InstanceLooks({ crowd, slot, children }) {
    const [worn, setWorn] = useState<WornLooks>({})
    const owner = useLookOwner('<MD2Instance>', crowd.model, setWorn)
    // Applied now, and again once the instance has (another) slot: its own effect, which claims it, runs after this one.
    slot.claimed = () => {
      const i = slot.value
      if (i < 0) return
      const { shell, shadow, light } = worn
      crowd.setShell(i, shell?.shell)
      crowd.setShadow(i, shadow?.shadow)
      // A crowd's shadows lie on one floor: an instance's sets it for all (the last given).
      if (shadow?.shadowFloor !== undefined) crowd.shadowFloor = shadow.shadowFloor
      // Its looks see to it that an instance's light is only a shadelight, in a crowd lit so.
      if (light?.shadelight !== undefined) crowd.setShadelight(i, light.shadelight)
    }
    useLayoutEffect(() => slot.claimed?.(), [slot, worn])
    return <MD2LookContext.Provider value={owner}>{children}</MD2LookContext.Provider>
  },
}

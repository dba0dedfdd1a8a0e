import { createRef, useMemo, useState } from 'react'
import { MD2Instance, MD2Instances, type MD2CrowdInstance } from 'react-three-md2'

export function Enemies({ places }: { places: [number, number, number][] }) {
  const [dead, setDead] = useState<ReadonlySet<number>>(() => new Set())
  // Each instance's controller: its `index` is the crowd slot an event's `instanceId` names.
  const controllers = useMemo(() => places.map(() => createRef<MD2CrowdInstance>()), [places])
  return (
    <MD2Instances
      url="/players/ogro/tris.MD2"
      skin="igdosh.pcx"
      onPointerMove={(event) => {
        const enemy = controllers.findIndex((ref) => ref.current?.index === event.instanceId)
        document.title = `enemy ${enemy} under the pointer`
      }}
    >
      {places.map((place, i) => (
        <MD2Instance
          key={i}
          controllerRef={controllers[i]}
          position={place}
          animation={dead.has(i) ? 'death1' : 'stand'}
          loop={!dead.has(i)}
          onClick={(event) => {
            // The nearest enemy only, not the ones behind it.
            event.stopPropagation()
            setDead((before) => new Set(before).add(i))
          }}
        />
      ))}
    </MD2Instances>
  )
}

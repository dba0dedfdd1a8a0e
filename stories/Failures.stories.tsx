import type { Meta, StoryObj } from '@storybook/react-vite'
import { Suspense } from 'react'
import { expect } from 'storybook/test'
import { isMD2Error, MD2Model } from '../src/index'
import { MISSING_MODEL, OGRO, OGRO_SKINS, TRUNCATED_MODEL } from './support/assets'
import { describeError, ErrorBoundary, ExpectReportedErrors, unexpectedReportedErrors } from './support/ErrorBoundary'
import { findStage } from './support/pixels'
import { Overlay } from './support/Stage'

/**
 * A model that cannot load fails inside its own error boundary, with the `MD2Error` code and
 * message (naming the file), while the rest of the scene keeps rendering.
 */
function FailureScene({ brokenUrl }: { brokenUrl: string }) {
  return (
    <>
      <ExpectReportedErrors expected={(error) => isMD2Error(error) && error.file === brokenUrl} />
      <group position={[-34, 0, 0]}>
        <ErrorBoundary
          key={brokenUrl}
          fallback={(error) => (
            <Overlay role="alert" tone="error" at={{ x: 0.27, y: 0.5 }}>
              {describeError(error)}
            </Overlay>
          )}
        >
          <Suspense fallback={<Overlay at={{ x: 0.27, y: 0.5 }}>loading {brokenUrl}…</Overlay>}>
            <MD2Model url={brokenUrl} animation="run" />
          </Suspense>
        </ErrorBoundary>
      </group>
      <group position={[34, 0, 0]}>
        <Suspense fallback={null}>
          <MD2Model url={OGRO} skin={OGRO_SKINS.igdosh} animation="run" />
        </Suspense>
      </group>
    </>
  )
}

const meta = {
  title: 'Failures',
  component: FailureScene,
  parameters: { stage: { camera: [0, 12, 130] } },
  argTypes: { brokenUrl: { control: 'text' } },
  render: (args) => <FailureScene {...args} />,
} satisfies Meta<typeof FailureScene>

export default meta
type Story = StoryObj<typeof meta>

/** The healthy model is on the right. */
const HEALTHY = { left: 0.5 }

/** A real model cut short after 20,000 bytes (stories/fixtures): `TRUNCATED`, and Ogro plays on. */
export const DamagedFile: Story = {
  args: { brokenUrl: TRUNCATED_MODEL },
  parameters: { expected: { messages: [TRUNCATED_MODEL] } },
  play: async ({ canvasElement, canvas }) => {
    const stage = await findStage(canvasElement)
    const alert = await canvas.findByRole('alert', {}, { timeout: 60_000 })
    await expect(alert.textContent).toMatch(/^MD2Error TRUNCATED: /)
    await expect(alert.textContent).toContain(TRUNCATED_MODEL)
    await expect(alert.textContent).toContain('frames at offset 9424')
    await stage.expectModel(HEALTHY)
    await stage.expectAnimated(HEALTHY)
    await expect(unexpectedReportedErrors).toEqual([])
  },
}

/** A URL that answers 404: `LOAD_FAILED` naming the URL, and Ogro plays on. */
export const MissingFile: Story = {
  args: { brokenUrl: MISSING_MODEL },
  // The 404 and the error it causes are the point of the story.
  parameters: { expected: { failedRequests: [MISSING_MODEL], messages: [MISSING_MODEL] } },
  play: async ({ canvasElement, canvas }) => {
    const stage = await findStage(canvasElement)
    const alert = await canvas.findByRole('alert', {}, { timeout: 60_000 })
    await expect(alert.textContent).toMatch(/^MD2Error LOAD_FAILED: /)
    await expect(alert.textContent).toContain(MISSING_MODEL)
    await expect(alert.textContent).toContain('404')
    await stage.expectModel(HEALTHY)
    await stage.expectAnimated(HEALTHY)
    await expect(unexpectedReportedErrors).toEqual([])
  },
}

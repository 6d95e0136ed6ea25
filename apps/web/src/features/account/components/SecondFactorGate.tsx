import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';

const StepUpDialog = lazy(() =>
  import('./StepUpDialog').then((module) => ({ default: module.StepUpDialog })),
);
const MfaSetupScreen = lazy(() =>
  import('./MfaSetupScreen').then((module) => ({ default: module.MfaSetupScreen })),
);

/**
 * The one place the app answers the server's second-factor demands (issue #38), for every feature: a call answered
 * 403 `step_up_required` opens the step-up dialog and is made again once it is proved (the API client waits; calls
 * that ask at the same time share one dialog); 403 `mfa_setup_required` puts the setup screen over everything. Their
 * code is fetched only when one is needed.
 */
export function SecondFactorGate() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [stepUp, setStepUp] = useState<((proved: boolean) => void) | null>(null);
  const pending = useRef<Promise<boolean> | null>(null);
  const [setupRequired, setSetupRequired] = useState(false);

  useEffect(() => {
    api.setStepUpHandler(() => {
      pending.current ??= new Promise<boolean>((resolve) => setStepUp(() => resolve)).finally(() => {
        pending.current = null;
      });
      return pending.current;
    });
    api.setMfaSetupRequiredHandler(() => setSetupRequired(true));
    return () => {
      api.setStepUpHandler(undefined);
      api.setMfaSetupRequiredHandler(undefined);
    };
  }, [api]);

  // Signed out (or another person): nothing asked of the last one stays.
  const userId = user.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new person alone resets the demands
  useEffect(() => {
    setSetupRequired(false);
  }, [userId]);

  return (
    <Suspense fallback={null}>
      {setupRequired && user.isAuthenticated && (
        <MfaSetupScreen
          onDone={() => {
            setSetupRequired(false);
            void queryClient.invalidateQueries();
          }}
        />
      )}
      {stepUp && (
        <StepUpDialog
          onDone={(proved) => {
            setStepUp(null);
            stepUp(proved);
          }}
        />
      )}
    </Suspense>
  );
}

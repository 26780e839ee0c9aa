import { useEffect, useState } from 'react';
import { Text } from '@chakra-ui/react';
import { MESSAGES } from '@first-round/shared/messages';
import { CheckboxOption } from './checkbox-option';
import { disablePush, pushState, type PushState } from '../lib/push';
import { enablePush, PushServiceSilent } from '../lib/push-enable';
import { errorKind, errorMessage } from '../lib/trpc';
import { getViewingDelay } from '../lib/viewing-delay';
import { notify } from '../lib/toaster';

const HINTS: Record<PushState, string> = {
  on: 'On for this device: a notification when one of your picks is taken.',
  off: 'A notification on this device when one of your picks is taken. Your browser asks first.',
  blocked: 'Notifications are blocked for this site in your browser. Allow them in the site settings (the icon left of the address), then tick this again.',
  unsupported: 'This browser cannot show notifications from a web page. On an iPhone, add First Round to your Home Screen first.',
};

/**
 * "Tell me when my picks go": this device's push subscription. The browser's permission is asked only
 * when the box is ticked (enablePush), never on page load.
 */
export function PushSetting({ id = 'push-picks' }: { id?: string }) {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void pushState()
      .catch((): PushState => 'off')
      .then((next) => live && setState(next));
    return () => {
      live = false;
    };
  }, []);
  const change = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) setState(await enablePush(getViewingDelay()));
      else {
        await disablePush();
        setState('off');
      }
    } catch (error) {
      if (error instanceof PushServiceSilent) {
        notify('error', MESSAGES.pushServiceSilent);
        return;
      }
      // The server's refusal says what is wrong (this browser's push service is not one it sends to, its keys,
      // a device another player's notifications go to); anything else is worth another try.
      const refused = errorKind(error) === 'INVALID_INPUT' || errorKind(error) === 'CONFLICT';
      notify('error', refused ? errorMessage(error, MESSAGES.pushSwitchFailed) : MESSAGES.pushSwitchFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <CheckboxOption
      id={id}
      label="Tell me when my picks go"
      hint={<Text as="span" data-testid="push-state">{HINTS[state ?? 'off']}</Text>}
      checked={state === 'on'}
      disabled={state === null || state === 'unsupported' || busy}
      onChange={(on) => void change(on)}
    />
  );
}

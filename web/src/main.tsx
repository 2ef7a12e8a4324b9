import '@mantine/core/styles.css';
import './styles.css';
import { MantineProvider, Modal, NumberInput, PasswordInput, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
// The darkest shade for filled and light variants, so white on teal and teal on pale teal read at WCAG AA contrast.
// Number fields without the spinner arrows: amounts are typed, and the arrows are neither named nor keyboard-reachable.
// A password's show/hide button is reachable with the keyboard, as every control.
const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: 9,
  defaultRadius: 'md',
  components: {
    NumberInput: NumberInput.extend({ defaultProps: { hideControls: true } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleFocusable: true } }),
    // A dialog's × says what it does to a screen reader (axe: button-name).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

// Text dark enough to read (WCAG AA, 4.5:1): dimmed text in gray 7 (Mantine's gray 6 is 3.3:1 on white), and light
// buttons and badges with their text in their colour's darkest shade on its palest.
const LIGHT_COLORS = ['teal', 'red', 'orange', 'blue', 'green', 'yellow', 'grape', 'cyan'] as const;
const readableText: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7]!,
    ...Object.fromEntries(LIGHT_COLORS.flatMap((c) => [[`--mantine-color-${c}-light-color`, t.colors[c]![9]!], [`--mantine-color-${c}-light`, t.colors[c]![0]!]])),
  },
  dark: {},
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={readableText}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename="/dashboard">
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

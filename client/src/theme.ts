import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from '@chakra-ui/react';
import {
  animationStyles,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  codeRecipe,
  dialogSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  spinnerRecipe,
  textStyles,
  tokens,
  toastSlotRecipe,
} from '@chakra-ui/react/theme';

/*
 * Chakra's default theme without the recipes of components this app does not use: `defaultConfig`
 * carries every recipe (~25 KB gzip), which would push the first load over its budget.
 * Add the recipe here when a screen starts using another styled Chakra component.
 */
const baseTheme = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      code: codeRecipe,
      heading: headingRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      dialog: dialogSlotRecipe,
      field: fieldSlotRecipe,
      list: listSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

/** A clean sporty look: dark navy header, turf green for hits, a warm accent for calls to action. */
const appTheme = defineConfig({
  globalCss: {
    'html, body': { bg: 'gray.50', color: 'gray.900', overflowX: 'hidden' },
    // Toasts sit just below the sticky header, which wraps its tabs onto a second row on phones.
    ':root': { '--fr-toast-top': '108px', md: { '--fr-toast-top': '62px' } },
    body: { fontFeatureSettings: '"tnum"' },
  },
  theme: {
    // Chakra's own text colours for messages (a field's error, hints) at AA on white: its defaults are
    // red.500 (3.8:1), green.600 (3.3:1), orange.600 (3.6:1) and gray.400 (2.6:1).
    semanticTokens: {
      colors: {
        fg: {
          subtle: { value: '{colors.gray.500}' },
          error: { value: '{colors.red.700}' },
          warning: { value: '{colors.orange.700}' },
          success: { value: '{colors.green.700}' },
          info: { value: '{colors.blue.700}' },
        },
      },
    },
    tokens: {
      colors: {
        navy: {
          50: { value: '#eef3fb' },
          100: { value: '#d5e0f2' },
          200: { value: '#a9bfe3' },
          300: { value: '#7295cc' },
          400: { value: '#4470b3' },
          500: { value: '#2a5494' },
          600: { value: '#1d4078' },
          700: { value: '#15305c' },
          800: { value: '#0f2444' },
          900: { value: '#0b1f3a' },
          950: { value: '#071428' },
        },
        // Dark enough for white text at AA (4.5:1): 500 is 4.68:1, 600 6.15:1, 700 8.09:1 (docs/web-app.md).
        turf: {
          50: { value: '#ecfbf1' },
          100: { value: '#cff3dc' },
          500: { value: '#17854a' },
          600: { value: '#14703e' },
          700: { value: '#0f5c32' },
        },
        gold: { 100: { value: '#fff1c7' }, 400: { value: '#ffc53d' }, 500: { value: '#f5a70a' }, 800: { value: '#6e4600' } },
      },
      fonts: {
        // Barlow Condensed 800 (latin, self-hosted: main.tsx imports it), a stadium-scoreboard face.
        heading: { value: `'Barlow Condensed', 'Arial Narrow', 'Segoe UI', system-ui, sans-serif` },
        body: { value: `'Inter', 'Segoe UI', system-ui, -apple-system, sans-serif` },
      },
    },
  },
});

/*
 * Toasts in AA contrast: Chakra's solid green (3.3:1 under white text) and orange (3.6:1) are too light,
 * and its descriptions are dimmed to 80 %. Same layout, darker fills, full-strength text.
 */
const toastContrast = defineConfig({
  theme: {
    slotRecipes: {
      toast: {
        slots: toastSlotRecipe.slots,
        base: {
          root: {
            '&[data-type=success]': { bg: 'turf.700', color: 'white' },
            '&[data-type=warning]': { bg: 'orange.800', color: 'white' },
            '&[data-type=error]': { bg: 'red.700', color: 'white' },
          },
          description: { opacity: '1' },
        },
      },
    },
  },
});

export const system = createSystem(mergeConfigs(defaultBaseConfig, baseTheme, appTheme, toastContrast));

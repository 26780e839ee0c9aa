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
        turf: {
          50: { value: '#ecfbf1' },
          100: { value: '#cff3dc' },
          500: { value: '#1f9d55' },
          600: { value: '#178046' },
          700: { value: '#116638' },
        },
        gold: { 400: { value: '#ffc53d' }, 500: { value: '#f5a70a' } },
      },
      fonts: {
        heading: { value: `'Inter', 'Segoe UI', system-ui, -apple-system, sans-serif` },
        body: { value: `'Inter', 'Segoe UI', system-ui, -apple-system, sans-serif` },
      },
    },
  },
});

export const system = createSystem(mergeConfigs(defaultBaseConfig, baseTheme, appTheme));

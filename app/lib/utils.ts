import { clsx, type ClassValue } from "clsx";
import { createTailwindMerge, validators } from "tailwind-merge";

const { isAny, isNumber, isFraction, isTshirtSize, isArbitraryValue, isArbitraryLength } = validators;
/** Colours and other open-ended values (`text-muted-foreground`, `bg-black/50`). */
const any = [isAny];
const overflowValues = ["auto", "hidden", "clip", "visible", "scroll"];
/** Spacing and sizing values: `4`, `0.5`, `1/2`, `xl`, `px`, `full`, `[44rem]` … */
const scale = [isNumber, isFraction, isTshirtSize, isArbitraryValue, "px", "auto", "full", "screen", "min", "max", "fit", "none", "dvh", "svh", "lvh", "dvw"];
/** `border`, `border-2`, `border-[3px]`, `ring`, `ring-2`: widths; anything else after the prefix is a colour. */
const width = ["", isNumber, isArbitraryLength];

/**
 * tailwind-merge's algorithm with the class groups this product's kit overrides, instead of its
 * default configuration of every Tailwind utility (≈6 KB gzipped less in every page's first load).
 * Validators that match anything come after the exact values of the same prefix (`text-sm` is a
 * size, `text-primary` a colour; `border-2` a width, `border-input` a colour).
 *
 * tests/unit/class-merge.test.ts merges every pair of classes written in app/ with this and with
 * tailwind-merge's full configuration and fails on any difference: a new utility that a component
 * overrides through `className` is added here when that test names it.
 */
const twMerge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    display: [
      "block", "inline-block", "inline", "flex", "inline-flex", "table", "inline-table", "table-caption", "table-cell",
      "table-column", "table-column-group", "table-footer-group", "table-header-group", "table-row-group", "table-row",
      "flow-root", "grid", "inline-grid", "contents", "list-item", "hidden",
    ],
    position: ["static", "fixed", "absolute", "relative", "sticky"],
    inset: [{ inset: scale }],
    "inset-x": [{ "inset-x": scale }],
    "inset-y": [{ "inset-y": scale }],
    top: [{ top: scale }],
    right: [{ right: scale }],
    bottom: [{ bottom: scale }],
    left: [{ left: scale }],
    z: [{ z: scale }],
    "flex-direction": [{ flex: ["row", "row-reverse", "col", "col-reverse"] }],
    flex: [{ flex: ["1", "auto", "initial", "none", isNumber, isArbitraryValue] }],
    basis: [{ basis: scale }],
    grow: [{ grow: ["", isNumber, isArbitraryValue] }],
    shrink: [{ shrink: ["", isNumber, isArbitraryValue] }],
    "grid-cols": [{ "grid-cols": scale }],
    "col-span": [{ "col-span": ["full", isNumber, isArbitraryValue] }],
    gap: [{ gap: scale }],
    "gap-x": [{ "gap-x": scale }],
    "gap-y": [{ "gap-y": scale }],
    "justify-content": [{ justify: ["normal", "start", "end", "center", "between", "around", "evenly", "stretch", "baseline"] }],
    "align-items": [{ items: ["start", "end", "center", "baseline", "stretch"] }],
    "align-self": [{ self: ["auto", "start", "end", "center", "stretch", "baseline"] }],
    p: [{ p: scale }],
    px: [{ px: scale }],
    py: [{ py: scale }],
    pt: [{ pt: scale }],
    pr: [{ pr: scale }],
    pb: [{ pb: scale }],
    pl: [{ pl: scale }],
    m: [{ m: scale }],
    mx: [{ mx: scale }],
    my: [{ my: scale }],
    mt: [{ mt: scale }],
    mr: [{ mr: scale }],
    mb: [{ mb: scale }],
    ml: [{ ml: scale }],
    "space-x": [{ "space-x": scale }],
    "space-y": [{ "space-y": scale }],
    size: [{ size: scale }],
    w: [{ w: scale }],
    "min-w": [{ "min-w": scale }],
    "max-w": [{ "max-w": scale }],
    h: [{ h: scale }],
    "min-h": [{ "min-h": scale }],
    "max-h": [{ "max-h": scale }],
    "font-size": [{ text: ["xs", "sm", "base", "lg", "xl", "2xl", "3xl", "4xl", "5xl", "6xl", "7xl", "8xl", "9xl"] }],
    "font-weight": [{ font: ["thin", "extralight", "light", "normal", "medium", "semibold", "bold", "extrabold", "black"] }],
    "font-family": [{ font: any }],
    tracking: [{ tracking: ["tighter", "tight", "normal", "wide", "wider", "widest", isArbitraryValue] }],
    leading: [{ leading: ["none", "tight", "snug", "normal", "relaxed", "loose", isNumber, isArbitraryValue] }],
    "text-alignment": [{ text: ["left", "center", "right", "justify", "start", "end"] }],
    "text-color": [{ text: any }],
    "text-decoration": ["underline", "overline", "line-through", "no-underline"],
    "underline-offset": [{ "underline-offset": scale }],
    "text-transform": ["uppercase", "lowercase", "capitalize", "normal-case"],
    "line-clamp": [{ "line-clamp": scale }],
    "list-style-type": [{ list: ["none", "disc", "decimal", isArbitraryValue] }],
    whitespace: [{ whitespace: ["normal", "nowrap", "pre", "pre-line", "pre-wrap", "break-spaces"] }],
    break: [{ break: ["normal", "words", "all", "keep"] }],
    overflow: [{ overflow: overflowValues }],
    "overflow-x": [{ "overflow-x": overflowValues }],
    "overflow-y": [{ "overflow-y": overflowValues }],
    "bg-color": [{ bg: any }],
    rounded: [{ rounded: ["", isAny] }],
    "border-w": [{ border: width }],
    "border-w-t": [{ "border-t": width }],
    "border-w-r": [{ "border-r": width }],
    "border-w-b": [{ "border-b": width }],
    "border-w-l": [{ "border-l": width }],
    "border-collapse": ["border-collapse", "border-separate"],
    "border-style": [{ border: ["solid", "dashed", "dotted", "double", "hidden", "none"] }],
    "border-color": [{ border: any }],
    "border-color-t": [{ "border-t": any }],
    "border-color-r": [{ "border-r": any }],
    "border-color-b": [{ "border-b": any }],
    "border-color-l": [{ "border-l": any }],
    shadow: [{ shadow: ["", "none", "2xs", "xs", "sm", "md", "lg", "xl", "2xl", "inner", isArbitraryValue] }],
    "ring-w": [{ ring: width }],
    "ring-color": [{ ring: any }],
    opacity: [{ opacity: scale }],
    cursor: [{ cursor: any }],
    transition: [{ transition: ["", "all", "colors", "opacity", "shadow", "transform", "none", isArbitraryValue] }],
    "translate-x": [{ "translate-x": scale }],
    "translate-y": [{ "translate-y": scale }],
  },
  conflictingClassGroups: {
    inset: ["inset-x", "inset-y", "top", "right", "bottom", "left"],
    "inset-x": ["right", "left"],
    "inset-y": ["top", "bottom"],
    flex: ["basis", "grow", "shrink"],
    gap: ["gap-x", "gap-y"],
    p: ["px", "py", "pt", "pr", "pb", "pl"],
    px: ["pr", "pl"],
    py: ["pt", "pb"],
    m: ["mx", "my", "mt", "mr", "mb", "ml"],
    mx: ["mr", "ml"],
    my: ["mt", "mb"],
    size: ["w", "h"],
    "font-size": ["leading"],
    "line-clamp": ["display", "overflow"],
    overflow: ["overflow-x", "overflow-y"],
    "border-w": ["border-w-t", "border-w-r", "border-w-b", "border-w-l"],
    "border-color": ["border-color-t", "border-color-r", "border-color-b", "border-color-l"],
  },
  conflictingClassGroupModifiers: {},
  orderSensitiveModifiers: [],
}));

/** Joins class names (conditionals allowed) and lets later Tailwind classes override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

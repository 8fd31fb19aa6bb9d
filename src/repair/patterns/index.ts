/**
 * Every pattern's unit, by code: the one place each pattern is described and its rule is kept. The README's table
 * and docs/repairs.md are checked against it by a test, and each pattern's test is `test/patterns/<code>.test.ts`.
 */
import { A } from "./A.js";
import { B } from "./B.js";
import { B2 } from "./B2.js";
import { B3 } from "./B3.js";
import { C } from "./C.js";
import { D } from "./D.js";
import { E } from "./E.js";
import { F } from "./F.js";
import { G } from "./G.js";
import { H } from "./H.js";
import { I } from "./I.js";
import { J } from "./J.js";
import { K } from "./K.js";
import { L } from "./L.js";
import { M } from "./M.js";
import { N } from "./N.js";
import { P } from "./P.js";
import { Q } from "./Q.js";
import { R } from "./R.js";
import { S } from "./S.js";
import { T } from "./T.js";
import { U } from "./U.js";
import { V } from "./V.js";
import { W } from "./W.js";
import { X } from "./X.js";
import { Y } from "./Y.js";
import { Z } from "./Z.js";

/** @internal */
export const UNITS = Object.freeze({
  A,
  B,
  B2,
  B3,
  C,
  D,
  E,
  F,
  G,
  H,
  I,
  J,
  K,
  L,
  M,
  N,
  P,
  Q,
  R,
  S,
  T,
  U,
  V,
  W,
  X,
  Y,
  Z,
});

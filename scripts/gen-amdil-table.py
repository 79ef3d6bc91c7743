#!/usr/bin/env python3
"""Writes frontend/amdil/src/table/rows.rs: one row per ILOpCode value of AMD IL.

Usage: scripts/gen-amdil-table.py [IL_OPCODES_TSV] > frontend/amdil/src/table/rows.rs

IL_OPCODES_TSV defaults to ../shared/notes/il_opcodes.tsv beside the repository. It gives each
opcode's value, enum name, text mnemonic, category and whether compute kernels use it; its
values follow grvk's include/amdil/amdil.h, because the AMD IL Reference Guide v2.4 (seed 001)
prints no numbers and its Appendix B listing drops entries (il_map.md).

FORMS below is the rest, written by hand from the seed's Chapter 7 entries (the line of each
entry is in the last column): the number of destinations and sources, the packet's special
layout, and the fields of the opcode token's control bits with their text spelling. Where the
seed has no entry (post-v2.4 opcodes) or its entry is corrupted, the last column says what the
row follows instead; every such decision is also listed in frontend/amdil/src/table.rs.

A FORMS line is `value dst src form fields... | source`:
- form: `plain`; `tail:N:dec|int|hex` (N dwords after the operands, printed as numbers);
  `named:A,B` (dwords after the operands, printed as `_A(v)_B(v)` after the mnemonic);
  `dims` (1 to 3 dwords, their count in the control field); `comment`; `cb` (dcl_cb and its
  immediate form); `mdef`; `mcall`; `tex` (control bit 12: resource-format dword and two more
  sources, bit 13: address-offset dword); `ftable`; `iptr`; `resource` (dcl_resource's format
  dword); `prefix`; `sentinel` (not an instruction). A trailing `+mods` allows the primary and
  secondary modifier dwords.
- fields, bits counted from the control field's bit 0 (token bit 16):
  `flag:NAME@B` prints `_NAME`; `num:NAME@LO:W` prints `_NAME(v)`; `opt:NAME@LO:W` prints it
  when not zero; `enum:NAME@LO:W:E` prints `_NAME(E[v])`; `optenum:...` when not zero;
  `bare@LO:W:E` prints `_E[v]`; `optbare@LO:W:E` when not zero; `paren@LO:W` prints `(v)` right
  after the mnemonic; `parenenum@LO:W:E` prints `(E[v])`; `arg@LO:W` prints v as the first
  operand; `argenum@LO:W:E` prints E[v] as the first operand; `words@LO:W:E` prints the names of
  the set bits as one operand joined by `|`; `count@LO:W` is the number of `dims` dwords.
"""
import csv
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
tsv = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    here, "..", "..", "shared", "notes", "il_opcodes.tsv")

RELOP = "enum:relop@0:3:RELOP"
ZEROOP = "enum:zeroop@0:2:ZEROOP"
IEEE = "flag:ieee@0"
ID14 = "num:id@0:14"
ID4 = "num:id@0:4"
TEXRS = "flag:ext@12 num:resource@0:8 num:sampler@8:4"

FORMS = f"""
0 0 0 sentinel | none
1 1 1 plain | seed:7463
2 1 1 plain | seed:7475
3 1 2 plain | seed:7507
4 1 1 plain | seed:7540
5 1 1 plain | seed:7556
6 0 0 plain | seed:3446
7 0 2 plain {RELOP} | seed:3457
8 0 0 tail:1:dec | seed:3485 label right after the opcode (L3487), not the token table's third token (L3498-L3499)
9 0 1 tail:1:dec | seed:3504
10 1 3 plain | seed:7576
11 1 1 plain | guess: no entry; one source like flr
12 1 2 plain | seed:7595
13 1 3 plain {RELOP} enum:cmpval@5:3:CMPVAL | seed:7631
14 1 1 plain | seed:7653
15 0 0 comment | seed:9812
16 0 0 plain | seed:3657
17 0 2 plain {RELOP} | seed:3671
18 1 1 plain | seed:7707
19 1 2 plain | seed:7738
20 0 2 plain | seed:4560
21 1 0 plain opt:x@0:2 opt:y@2:2 opt:z@4:2 opt:w@6:2 | seed:4580
22 1 0 plain opt:x@0:2 opt:y@2:2 opt:z@4:2 opt:w@6:2 flag:center@8 flag:bias@9 flag:invert@10 flag:centered@11 | seed:4602
23 1 0 plain+mods bare@0:5:USAGE num:usageindex@5:8 | seed:4661
24 1 0 plain num:param@0:8 | seed:4718
25 0 0 plain num:stage@0:8 enum:type@8:3:PIXTEX enum:coordmode@11:2:COORDMODE flag:cleartype@13 | seed:4729
26 1 0 plain+mods opt:control@0:14 | seed:4753
27 1 0 plain+mods opt:control@0:14 | seed:4816
28 1 0 tail:4:hex | seed:4883
29 1 0 tail:1:dec | seed:4933
30 1 1 plain enum:matrix@0:3:MATRIX | seed:7754
31 1 2 plain | seed:7771
32 1 2 plain {ZEROOP} | seed:7791
33 1 3 plain {IEEE} | seed:7812
34 1 2 plain {IEEE} | seed:7830
35 1 2 plain {IEEE} | seed:7847
36 1 2 plain | seed:7864
37 1 1 plain flag:fine@7 | seed:7880
38 1 1 plain flag:fine@7 | seed:7900
39 0 0 plain | seed:3728
40 0 0 plain | seed:3742
41 0 0 plain | seed:3768
42 0 0 plain | seed:3772
43 0 0 plain | seed:3795
44 1 1 plain | seed:7955
45 1 1 plain | seed:7972
46 1 1 plain | seed:7998
47 1 3 plain | seed:8014
48 1 1 plain | seed:8024
49 1 1 plain | seed:8056
50 0 0 tail:1:dec | seed:3832
51 1 1 plain | seed:8098
52 0 2 plain {RELOP} | seed:3903
53 0 1 plain | seed:3918
54 1 1 plain | seed:5034
55 0 1 plain num:stage@0:8 flag:sample@8 | seed:5441
56 1 1 plain | seed:8145
57 1 1 plain | seed:8168
58 1 1 plain {ZEROOP} | seed:8214
59 1 1 plain num:stage@0:8 | seed:5684
60 1 1 plain {ZEROOP} | seed:8265
61 1 1 plain {ZEROOP} | seed:8327
62 0 1 plain flag:repeat@0 | seed:3932
63 1 3 plain | seed:8378
64 1 3 plain {IEEE} | seed:8411
65 1 2 plain {IEEE} | seed:8454
66 0 2 plain num:exportStream@0:6 num:elemOffset@6:7 | seed:5721
67 1 1 plain num:elem@0:6 | seed:5753
68 1 2 plain {IEEE} | seed:8478
69 1 2 plain enum:matrix@0:3:MATRIX | seed:8517
70 1 2 plain | seed:8577
71 1 1 plain | seed:8581
72 1 1 plain | guess: no entry; a move like mov
73 1 2 plain {IEEE} | seed:8596
74 1 1 plain enum:type@0:4:NOISE | seed:8629
75 0 0 plain | seed:9824
76 1 1 plain {ZEROOP} flag:nrm4@2 | seed:8646
77 1 1 plain | seed:8706
78 1 2 plain | seed:8761
79 1 1 plain | guess: no entry; one source
80 1 1 plain num:stage@0:8 | seed:8719
81 1 1 plain {ZEROOP} | seed:8777
82 1 2 plain flag:normalize@0 | seed:8829
83 0 0 plain | seed:3973
84 1 1 plain | seed:8851
85 1 1 plain {ZEROOP} | seed:8919
86 1 2 plain {RELOP} | seed:8977
87 1 1 plain | seed:8993
88 1 1 plain | seed:9009
89 1 1 plain | seed:9026
90 1 1 plain | seed:9055
91 1 2 plain | seed:9073
92 1 1 plain | seed:9091
93 1 1 plain+mods num:stage@0:8 opt:control@8:6 | seed:6155
94 1 1 plain+mods num:stage@0:8 opt:control@8:6 | seed:6255
95 1 3 plain+mods num:stage@0:8 opt:control@8:6 | seed:6378
96 1 1 plain+mods num:stage@0:8 opt:control@8:6 | seed:6484
97 1 1 plain+mods num:stage@0:8 opt:control@8:6 | seed:6549
98 1 1 plain enum:matrix@0:3:MATRIX | seed:9108
99 1 1 plain | guess: no entry; one source like round_z
100 1 3 plain | seed:7921
101 0 1 plain | seed:3472
102 0 1 plain | seed:3472
103 0 1 tail:1:dec | seed:3589
104 0 1 tail:1:dec | seed:3553
105 0 0 tail:1:int | seed:3644 the case value is a dword after the opcode, as grvk reads it; the entry's Format says 1-input
106 0 1 plain | seed:3687
107 0 1 plain | seed:3687
108 0 0 plain | seed:3702
109 0 0 plain | seed:3820
110 0 0 plain | seed:3755
111 0 1 plain | seed:3882
112 0 1 plain | seed:3882
113 0 0 plain | seed:4033
114 0 1 plain | seed:4020
115 0 0 plain | seed:3989
116 0 1 plain | seed:4002
117 0 1 plain | seed:4002
118 0 1 cb | seed:4048
119 0 1 plain | seed:4103
120 0 0 plain enum:prim_type@0:6:TOPOLOGY | seed:4173 its token table is dcl_literal's (L4182-L4187); the Format line (0-input) is followed
121 0 1 tail:4:hex | seed:4220
122 0 0 plain arg@0:14 | seed:4238
123 0 0 plain | seed:4363
124 0 0 plain argenum@0:2:OUTTOPOLOGY | seed:4415
125 1 0 plain bare@0:5:USAGE | seed:4367
126 1 0 plain bare@0:5:USAGE optenum:interp@5:3:INTERP flag:center@8 flag:bias@9 flag:invert@10 flag:centered@11 | seed:4119
127 0 0 plain | seed:4547
128 0 0 resource num:id@0:8 enum:type@8:4:PIXTEX flag:unnorm@15 | seed:4444 type 27:24 (the entry also says reserved 30:24); bit 31 is unnorm, not pri_modifier_present
129 0 0 plain | seed:5093
130 0 1 plain | seed:5135
131 0 1 plain | seed:5135
132 0 0 plain | seed:5154
133 0 0 plain | seed:5176
134 1 1 tex+mods {TEXRS} | seed:5573
135 1 1 plain num:resource@0:8 flag:uint@8 | seed:5797
136 1 1 tex+mods {TEXRS} | seed:5828
137 1 2 tex+mods {TEXRS} | seed:5900
138 1 3 tex+mods {TEXRS} | seed:6054
139 1 2 tex+mods {TEXRS} | seed:6078
140 1 2 tex+mods {TEXRS} | seed:5923
141 1 2 tex+mods {TEXRS} | seed:6031
142 1 1 plain | seed:6866
143 1 2 plain | seed:6879
144 1 2 plain | seed:6879
145 1 2 plain | seed:6688
146 1 3 plain | seed:6754
147 1 2 plain | seed:6780
148 1 2 plain | seed:6780
149 1 2 plain | seed:6798
150 1 2 plain | seed:6811
151 1 2 plain | seed:6738
152 1 2 plain | seed:6738
153 1 2 plain | seed:6738
154 1 1 plain | seed:6853
155 1 2 plain | seed:6738
156 1 2 plain | seed:6895
157 1 2 plain | seed:6895
158 1 2 plain | seed:7134
159 1 2 plain | seed:6940
160 1 2 plain | seed:7038
161 1 3 plain | seed:6992
162 1 2 plain | seed:7018
163 1 2 plain | seed:7018
164 1 2 plain | seed:6977
165 1 2 plain | seed:6977
166 1 2 plain | seed:7051
167 1 2 plain | seed:7064
168 1 1 plain | seed:7404
169 1 1 plain | seed:7420
170 1 1 plain | seed:7436
171 1 1 plain | seed:7445
172 1 2 plain | seed:6701
173 1 3 plain | seed:7617
174 1 2 plain | seed:7939
175 1 1 plain | seed:7981
176 1 2 plain | seed:8114
177 1 1 plain | seed:8311
178 1 2 plain | seed:8396
179 1 2 plain | seed:8613
180 1 1 plain | seed:8869
181 1 1 plain | seed:8882
182 1 1 plain | seed:8895
183 1 1 plain | seed:8907
184 1 1 plain | seed:8968
185 1 1 plain | seed:9042
186 1 1 plain | seed:7725
187 1 1 plain | seed:9064
188 1 2 plain {IEEE} | seed:7795
189 1 1 plain | seed:8129
190 0 1 plain opt:control@0:14 | seed:6140
191 1 1 plain | seed:9252
192 1 2 plain | seed:9171
193 1 2 plain | seed:9462
194 1 1 plain | seed:7296
195 1 1 plain | seed:7337
196 1 2 plain | seed:9308
197 1 1 plain | seed:9230
198 1 3 plain | seed:9495
199 1 1 tex+mods {TEXRS} | seed:5339
200 1 1 plain num:resource@0:8 flag:uint@8 | seed:6102
201 1 1 tex+mods {TEXRS} | guess: no entry; laid out like sample (DX10.1 lod)
202 0 1 plain | seed:4428
203 1 2 plain | seed:9517
204 1 2 plain | seed:9215
205 1 2 plain | seed:9274
206 1 2 plain | seed:9323
207 1 1 plain num:resource@0:8 flag:uint@8 | seed:6119
208 1 2 plain | seed:9202
209 0 1 plain | seed:4471
210 0 0 plain | seed:4975
211 0 0 plain opt:control@0:14 | guess: internal to AMD's compiler (L3423), no layout
212 0 0 dims count@0:14 | seed:4339
213 0 0 dims count@0:14 | seed:4499 the entry says control must be zero but gives 1 to 3 dwords; the count is read as for dcl_num_thread_per_group
214 0 0 plain arg@0:14 | seed:4206
215 0 0 plain bare@0:1:SHARING | seed:4191
216 1 1 plain enum:sharingMode@0:2:SHARING flag:neighborExch@2 | seed:5518
217 1 1 plain enum:sharingMode@0:2:SHARING num:lOffset@2:6 | seed:5546
218 0 0 plain flag:threads@0 flag:lds@1 flag:memory@2 flag:sr@3 flag:mem_write_only@4 flag:mem_read_only@5 flag:gds@6 | seed:5263
219 1 2 plain {ID14} | seed:10354 no dword after the operands: the Format line (L10372) and grvk, not the copied token line (L10380)
220 1 3 plain {ID14} | seed:10915 no dword after the operands: as lds_load_vec (L10937 says 1 additional token)
221 0 0 plain {ID4} enum:fmtx@4:4:ELEMFMT enum:type@8:6:PIXTEX | seed:10087 fmtx is the element format and type the dimension: the entry swaps their descriptions (L10096-L10098)
222 0 0 plain {ID14} | seed:9977
223 0 0 tail:1:dec {ID14} | seed:10066
224 1 1 plain {ID14} | seed:11281
225 1 1 plain num:id@0:10 optbare@10:2:UAVREAD opt:ctl@12:4 | seed:11419 bits 31:28 (ctl) are set by AMD's compiler (corpus: 4), their meaning is not documented
226 1 1 plain {ID14} | seed:12008
227 0 2 plain {ID14} | seed:11988
228 1 2 plain {ID14} | seed:11457
229 1 2 plain {ID14} | seed:12029
230 0 0 plain num:id@0:10 | seed:9900
231 1 1 plain num:id@0:10 enum:size@10:2:DATASIZE optbare@12:2:UAVREAD | seed:11213
232 1 1 plain num:id@0:10 enum:size@10:2:DATASIZE | seed:11237
233 0 2 plain {ID14} | seed:11158
234 0 2 plain {ID14} | seed:12033
235 0 2 plain {ID14} | seed:11950
236 0 2 plain {ID14} | seed:11348
237 0 2 plain {ID14} | seed:11318
238 0 2 plain {ID14} | seed:12160
239 0 2 plain {ID14} | seed:12131
240 0 2 plain {ID14} | seed:11178
241 0 2 plain {ID14} | seed:11383
242 0 2 plain {ID14} | seed:12202
243 0 3 plain {ID14} | seed:11257
244 1 2 plain {ID14} | seed:11479
245 1 2 plain {ID14} | seed:11727
246 1 2 plain {ID14} | seed:11688
247 1 2 plain {ID14} | seed:11627
248 1 2 plain {ID14} | seed:11587
249 1 2 plain {ID14} | seed:11855
250 1 2 plain {ID14} | seed:11818
251 1 2 plain {ID14} | seed:11520
252 1 2 plain {ID14} | seed:11665
253 1 2 plain {ID14} | seed:11925
254 1 2 plain {ID14} | seed:11883
255 1 3 plain {ID14} | seed:11548
256 1 0 plain {ID14} | seed:9837
257 1 0 plain {ID14} | seed:9880
258 0 0 plain {ID14} | seed:9953
259 0 0 tail:1:dec {ID14} | seed:10048
260 1 1 plain {ID14} | seed:11098
261 1 1 plain num:id@0:8 flag:ext@12 | seed:11106 with ext (bit 28) a third source, the indexed id (L11140)
262 0 0 tail:1:dec {ID14} | seed:9914 control is the id (L9932); the token table's "ID must be zero" (L9941) is not followed
263 0 0 tail:2:dec {ID14} | seed:10020
264 1 1 plain {ID4} | seed:10216
265 0 2 plain {ID4} | seed:10853
266 0 2 plain {ID4} | seed:10109
267 0 2 plain {ID4} | seed:10951
268 0 2 plain {ID4} | seed:10805
269 0 2 plain {ID4} | seed:10430
270 0 2 plain {ID4} | seed:10388
271 0 2 plain {ID4} | seed:11022
272 0 2 plain {ID4} | seed:10980
273 0 2 plain {ID4} | seed:10118
274 0 2 plain {ID4} | seed:10497
275 0 2 plain {ID4} | seed:11061
276 0 3 plain {ID4} | seed:10147
277 1 2 plain {ID4} | seed:10538
278 1 2 plain {ID4} | seed:10664
279 1 2 plain {ID4} | seed:10650
280 1 2 plain {ID4} | seed:10599
281 1 2 plain {ID4} | seed:10581
282 1 2 plain {ID4} | seed:10723
283 1 2 plain {ID4} | seed:10683
284 1 2 plain {ID4} | seed:10573
285 1 2 plain {ID4} | seed:10631
286 1 2 plain {ID4} | seed:10773
287 1 2 plain {ID4} | seed:10742
288 1 3 plain {ID4} | seed:10577
289 0 0 plain arg@0:14 | seed:5126
290 0 0 plain arg@0:14 | seed:5165
291 0 0 plain arg@0:14 | seed:5185
292 1 3 tex+mods {TEXRS} | seed:6008
293 1 4 tex+mods {TEXRS} | seed:5985
294 1 3 tex+mods {TEXRS} | seed:5962
295 1 1 plain | seed:7212
296 1 1 plain parenenum@0:2:FIRSTBIT | seed:7222
297 1 2 plain | seed:6729
298 1 2 plain | seed:6714
299 1 3 plain | seed:7165
300 1 3 plain | seed:7241
301 1 1 plain | seed:7285
302 0 0 tail:1:dec | seed:4294
303 0 0 tail:1:dec | seed:4324
304 0 0 plain arg@0:14 | seed:4309
305 0 0 plain | seed:3849
306 0 0 plain arg@0:14 | seed:3860
307 0 0 plain arg@0:14 | seed:3873
308 0 0 plain | seed:3811
309 0 0 plain argenum@0:2:TSDOMAIN | seed:4517
310 0 0 plain argenum@0:2:TSPARTITION | seed:4537
311 0 0 plain argenum@0:2:TSOUTPUT | seed:4529
312 0 0 tail:1:hex | seed:4263
313 0 0 tail:1:dec | seed:13066
314 0 0 ftable {ID14} | seed:13077
315 0 0 iptr num:id@0:13 num:dynamic@13:1 | seed:13094
316 0 1 tail:1:dec {ID14} | seed:13120 the label is a dword after the source (L13127), as in the example (L13174)
317 1 4 plain | seed:7271
318 1 0 plain+mods num:resource@0:8 | seed:5063
319 1 2 tex+mods {TEXRS} | seed:5388
320 1 2 tex+mods {TEXRS} | seed:5414
321 1 3 tex+mods {TEXRS} | seed:5364
322 1 2 plain | seed:9358
323 1 2 plain | seed:9395
324 1 1 plain | seed:7365
325 1 1 plain | seed:7389
326 1 1 plain | seed:9770
327 1 1 plain | seed:9781
328 1 1 plain | seed:9785
329 1 1 plain | seed:9796
330 1 3 plain | seed:9660
331 1 3 plain | seed:9690
332 1 3 plain | seed:9761
333 1 3 plain | seed:9724
334 1 3 plain | seed:9746
335 1 3 plain | seed:9750
336 1 1 plain | seed:9698
337 1 2 plain | seed:5244
338 1 2 plain | seed:5218
339 1 1 plain | seed:5196
340 1 1 plain | seed:9430
341 1 3 plain | seed:9444
342 1 1 plain | seed:9634
343 1 1 plain {ZEROOP} | seed:9531
344 1 1 plain {ZEROOP} | seed:9586
345 0 0 mdef paren@0:14 | seed:13205
346 0 0 plain | seed:13266
347 0 0 mcall paren@0:14 | seed:13279
348 0 1 plain arg@0:14 | seed:4484
349 0 0 plain words@0:4:GLOBALFLAGS | seed:4082 the syntax line is dcl_input_primitive's (L4083); flag names as AMD's disassembler prints them (grvk's golden texts)
350 1 1 plain {ZEROOP} | guess: no entry; rcp_vec with rcp's zeroop control (grvk)
351 1 1 tex+mods {TEXRS} | seed:5650
352 0 0 tail:1:dec | seed:4278
353 0 0 prefix flag:x@0 flag:y@1 flag:z@2 flag:w@3 | seed:3398
354 0 0 tail:1:dec {ID14} | seed:12225
355 0 0 tail:2:dec {ID14} | seed:12240 two dwords like dcl_struct_lds; the Format line's 3-input (L12245) is not followed
356 1 1 plain {ID14} | seed:12414
357 1 2 plain {ID14} | seed:12957
358 0 2 plain {ID14} | seed:12257
359 0 2 plain {ID14} | seed:12976
360 0 2 plain {ID14} | seed:12925
361 0 2 plain {ID14} | seed:12376
362 0 2 plain {ID14} | seed:12361
363 0 2 plain {ID14} | seed:12447
364 0 2 plain {ID14} | seed:12430
365 0 2 plain {ID14} | seed:13009
366 0 2 plain {ID14} | seed:12992
367 0 2 plain {ID14} | seed:12297
368 0 2 plain {ID14} | seed:12505
369 0 2 plain {ID14} | seed:13026
370 0 3 plain {ID14} | seed:12488
371 0 3 plain {ID14} | seed:12312
372 1 2 plain {ID14} | seed:12546
373 1 2 plain {ID14} | seed:12812
374 1 2 plain {ID14} | seed:12786
375 1 2 plain {ID14} | seed:12642
376 1 2 plain {ID14} | seed:12611
377 1 2 plain {ID14} | seed:12693
378 1 2 plain {ID14} | seed:12667
379 1 2 plain {ID14} | seed:12874
380 1 2 plain {ID14} | seed:12842
381 1 2 plain {ID14} | seed:12569
382 1 2 plain {ID14} | seed:12758
383 1 2 plain {ID14} | seed:12891
384 1 3 plain {ID14} | seed:12732
385 1 2 plain {ID14} | guess: no entry; gds_read_xchg like the other gds_read ops
386 1 3 plain {ID14} | seed:12595
387 1 3 plain | seed:7005
388 1 2 plain | seed:7087
389 1 3 plain | seed:8042 three sources as its syntax shows; the Format line's 1-input (L8046) is not followed
390 0 2 plain {ID14} | seed:12094
391 0 2 plain {ID14} | seed:12072
392 1 3 plain | seed:6763
393 1 2 plain | seed:6825 two sources as its syntax shows; the Format line's 3-input (L6828) is not followed
394 1 2 plain {ID14} | seed:11791
395 1 2 plain {ID14} | seed:11755
396 1 1 plain {ID4} | seed:10247
397 1 1 plain {ID4} | seed:10272
398 1 1 plain {ID4} | seed:10298
399 1 1 plain {ID4} | seed:10326
400 0 2 plain {ID4} | seed:10881
401 0 2 plain {ID4} | seed:10898
402 1 1 plain num:id@0:10 optbare@10:2:UAVREAD opt:ctl@12:4 | guess: no entry; laid out like uav_raw_load
403 1 1 plain num:id@0:10 optbare@10:2:UAVREAD opt:ctl@12:4 | guess: no entry; laid out like uav_raw_load
404 1 1 plain num:id@0:10 optbare@10:2:UAVREAD opt:ctl@12:4 | guess: no entry; laid out like uav_raw_load
405 1 1 plain num:id@0:10 optbare@10:2:UAVREAD opt:ctl@12:4 | guess: no entry; laid out like uav_raw_load
406 1 2 plain {ID14} | guess: no entry; a store like uav_raw_store
407 1 2 plain {ID14} | guess: no entry; a store like uav_raw_store
408 1 2 plain | seed:6603
409 1 2 plain | seed:6616
410 1 2 plain | seed:6616
411 1 2 plain | seed:6616
412 1 2 plain | seed:6632
413 1 2 plain | seed:6632
414 1 2 plain | seed:6616
415 1 1 plain | seed:6651
416 1 2 plain | seed:6665
417 1 2 plain | seed:6665
418 1 2 plain | seed:6953
419 1 2 plain | seed:6953
420 1 2 plain | seed:6920
421 1 2 plain | seed:6920
422 1 2 plain | seed:6968
423 0 0 tail:1:hex {ID14} | guess: no entry; grvk reads one dword (element format, dimension)
424 0 0 named:stride,length num:id@0:10 enum:access@10:2:ACCESS opt:ctl@12:4 | guess: no entry; layout read from the corpus and the spelling from AMD's LLVM tests (dcl_typeless_uav_id(11)_stride(4)_length(4)_access(read_write)); ctl (bits 31:28) undocumented, 4 or 11 in the corpus
425 1 2 plain | seed:6838 two sources as its syntax shows; the Format line's 3-input (L6841) is not followed
426 1 2 plain | seed:7102
427 0 2 plain {ID4} | seed:10199
428 0 2 plain {ID4} | seed:10174
429 1 2 plain {ID4} | guess: no entry; like lds_read_add
430 1 2 plain {ID4} | guess: no entry; like lds_read_add
431 0 3 plain {ID4} | seed:10469
432 1 3 plain {ID4} | guess: no entry; like lds_read_cmp_xchg
433 1 1 plain | guess: no entry; a conversion like f2f16
434 1 1 plain | guess: no entry; a conversion like f2f16
435 1 1 plain | guess: no entry; a conversion like f2f16
436 1 2 plain | guess: no entry; like i64add
437 1 2 plain | guess: no entry; like i64add
438 1 2 plain | guess: no entry; like dldexp
439 1 1 plain | guess: no entry; one source like dfrexp
440 1 1 plain | guess: no entry; one source like dfrexp
441 1 1 plain | guess: no entry; one source like dfrexp
442 1 1 plain | guess: no entry; one source like dfrexp
443 1 1 plain | guess: no entry; a conversion like d2f
444 1 1 plain | guess: no entry; a conversion like d2f
445 1 1 plain | guess: no entry; a conversion like f2d
446 1 1 plain | guess: no entry; a conversion like f2d
447 1 1 plain | guess: no entry; a conversion like ftoi
448 1 1 plain | guess: no entry; a conversion like ftoi
449 1 3 plain | guess: no entry; three sources, as named
450 1 3 plain | guess: no entry; three sources, as named
451 1 3 plain | guess: no entry; three sources, as named
452 1 3 plain | guess: no entry; three sources, as named
453 1 3 plain | guess: no entry; three sources, as named
454 1 3 plain | guess: no entry; three sources, as named
455 1 3 plain | guess: no entry; three sources, as named
456 1 3 plain | guess: no entry; three sources, as named
457 1 3 plain | guess: no entry; three sources, as named
458 1 2 plain | guess: no entry; a value and a class mask
459 1 2 plain | guess: no entry; a value and a class mask
460 1 1 plain | guess: no entry; one source
461 1 0 plain | guess: no entry; a destination only
462 1 0 plain | guess: no entry; a destination only
463 1 2 plain | guess: no entry; like i64add
464 1 2 plain | guess: no entry; like i64add
465 1 2 plain | guess: no entry; like i64add
466 1 2 plain | guess: no entry; like i64add
467 1 2 plain | guess: no entry; like i64add
468 0 0 tail:1:dec | guess: no entry; one count dword
469 0 0 plain {ID14} | guess: no entry; an id in the control field
470 0 1 plain {ID14} | guess: no entry; an id and the initial value
471 0 0 plain {ID14} | guess: no entry; an id in the control field
472 0 0 plain {ID14} | guess: no entry; an id in the control field
473 1 3 plain | guess: no entry; three sources, as named
474 1 3 plain | guess: no entry; three sources, as named
475 1 3 plain | guess: no entry; three sources, as named
476 1 3 plain | guess: no entry; three sources, as named
477 1 3 plain | guess: no entry; three sources, as named
478 1 3 plain | guess: no entry; three sources, as named
479 1 2 plain | guess: no entry; a value and a segment
480 1 3 plain | guess: no entry; three sources, as named
481 1 3 plain | guess: no entry; three sources, as named
482 1 3 plain | guess: no entry; three sources, as named
483 0 0 sentinel | none
"""

# Mnemonics whose il_opcodes.tsv spelling is a description rather than the text syntax.
MNEMONIC = {
    "IL_OP_UNKNOWN": "unknown",
    "IL_OP_COMMENT": "comment",
    "IL_OP_AND": "iand",
    "IL_OP_SCATTER": "scatter",
    "IL_OP_GETLOD": "getlod",
    "IL_OP_INIT_SR": "init_shared_registers",
    "IL_OP_INIT_SR_HELPER": "init_sr_helper",
    "IL_OP_PREFIX": "prec",
    "IL_OP_DCL_TYPED_UAV": "dcl_typed_uav",
    "IL_OP_DCL_TYPELESS_UAV": "dcl_typeless_uav",
    "IL_OP_CU_ID": "cu_id",
    "IL_OP_WAVE_ID": "wave_id",
    "IL_OP_MACRODEF": "mdef",
    "IL_OP_MACROCALL": "mcall",
    "IL_OP_I_FIRSTBIT": "ffb",
    "IL_OP_LAST": "last",
    "IL_DCL_RESOURCE": "dcl_resource",
    "IL_OP_MEMEXPORT": "memexport",
}

COMPUTE = {"Y": "Yes", "N": "No", "partial": "Partial", "legacy-R7xx": "Legacy"}

FORM = {"plain": "Plain", "dims": "Dims", "comment": "Comment", "cb": "ConstBuffer",
        "mdef": "MacroDef", "mcall": "MacroCall", "tex": "Texture", "ftable": "FunctionTable",
        "iptr": "InterfacePtr", "resource": "Resource", "prefix": "Prefix",
        "sentinel": "Sentinel"}
RADIX = {"dec": "Dec", "int": "Int", "hex": "Hex"}
KINDS = {"flag", "num", "opt", "enum", "optenum", "bare", "optbare", "paren", "parenenum",
         "arg", "argenum", "words", "count"}


def base_mnemonic(enum, text):
    if enum in MNEMONIC:
        return MNEMONIC[enum]
    m = re.match(r"[a-z0-9_]+", text.strip())
    if not m:
        raise SystemExit(f"no mnemonic for {enum}: {text!r}")
    name = m.group(0)
    # Control specifiers spelled into the tsv's syntax column are fields, not the name.
    for suffix in ("_id", "_resource", "_relop", "_zeroop", "_stage", "_matrix", "_type",
                   "_exportStream", "_elem"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def field(spec):
    m = re.fullmatch(r"([a-z]+)(?::([A-Za-z_0-9]+))?@(\d+)(?::(\d+))?(?::([A-Z]+))?", spec)
    if not m or m.group(1) not in KINDS:
        raise SystemExit(f"bad field {spec}")
    kind, name, lo, width, enum = m.groups()
    width = int(width or 1)
    if (kind in ("flag", "num", "opt", "enum", "optenum")) != (name is not None):
        raise SystemExit(f"{spec}: a name is given exactly for the named kinds")
    if (kind in ("enum", "optenum", "bare", "optbare", "parenenum", "argenum", "words")) != (
            enum is not None):
        raise SystemExit(f"{spec}: an enumeration is given exactly for the enumerated kinds")
    k = {"flag": "Flag", "num": "Num", "opt": "Opt", "enum": "Enum", "optenum": "OptEnum",
         "bare": "Bare", "optbare": "OptBare", "paren": "Paren", "parenenum": "ParenEnum",
         "arg": "Arg", "argenum": "ArgEnum", "words": "Words", "count": "Count"}[kind]
    k = f"Kind::{k}(enums::{enum})" if enum else f"Kind::{k}"
    return f'Field {{ name: "{name or ""}", lo: {lo}, width: {width}, kind: {k} }}'


def parse_forms():
    forms = {}
    for line in FORMS.strip().splitlines():
        body, source = [s.strip() for s in line.split("|", 1)]
        words = body.split()
        value, dst, src, form = int(words[0]), int(words[1]), int(words[2]), words[3]
        mods = form.endswith("+mods")
        form = form.removesuffix("+mods")
        if form.startswith("tail:"):
            _, n, radix = form.split(":")
            form_rs = f"Form::Tail({n}, Radix::{RADIX[radix]})"
        elif form.startswith("named:"):
            names = ", ".join(f'"{n}"' for n in form[len("named:"):].split(","))
            form_rs = f"Form::Named(&[{names}])"
        else:
            form_rs = f"Form::{FORM[form]}"
        fields = [field(f) for f in words[4:]]
        if source == "none":
            src_rs, line_no, note = "Source::None", 0, ""
        elif source.startswith("seed:"):
            m = re.match(r"seed:(\d+)\s*(.*)", source)
            src_rs, line_no, note = "Source::Seed", int(m.group(1)), m.group(2)
        elif source.startswith("guess:"):
            src_rs, line_no, note = "Source::Guess", 0, source[len("guess:"):].strip()
        else:
            raise SystemExit(f"bad source in {line!r}")
        if value in forms:
            raise SystemExit(f"value {value} twice in FORMS")
        forms[value] = (dst, src, form_rs, mods, fields, src_rs, line_no, note)
    return forms


def main():
    rows = list(csv.DictReader(open(tsv, newline=""), delimiter="\t"))
    forms = parse_forms()
    if sorted(forms) != [int(r["value"]) for r in rows]:
        raise SystemExit("FORMS must have exactly one line per il_opcodes.tsv row")
    seen = {}
    out = [
        "// Generated by scripts/gen-amdil-table.py from ../shared/notes/il_opcodes.tsv and the",
        "// forms the script lists (from the AMD IL Reference Guide v2.4, seed 001); do not edit.",
        "",
        "use super::{enums, Compute, Field, Form, Kind, Radix, Row, Source};",
        "",
        "#[rustfmt::skip]",
        "pub(super) static ROWS: &[Row] = &[",
    ]
    for r in rows:
        value = int(r["value"])
        enum = r["enum_name"]
        mnemonic = base_mnemonic(enum, r["text_mnemonic"])
        if mnemonic in seen:
            raise SystemExit(f"mnemonic {mnemonic} of {enum} is also {seen[mnemonic]}'s")
        seen[mnemonic] = enum
        dst, src, form, mods, fields, source, line_no, note = forms[value]
        compute = COMPUTE.get(r["compute_relevant"])
        if compute is None:
            raise SystemExit(f"compute_relevant {r['compute_relevant']!r} of {enum}")
        note = note.replace("\\", "\\\\").replace('"', '\\"')
        out.append(
            f'    Row {{ value: {value}, name: "{enum}", mnemonic: "{mnemonic}", '
            f'category: "{r["category"].split()[0]}", compute: Compute::{compute}, '
            f"dst: {dst}, src: {src}, form: {form}, mods: {'true' if mods else 'false'}, "
            f"fields: &[{', '.join(fields)}], source: {source}, seed_line: {line_no}, "
            f'note: "{note}" }},')
    out.append("];")
    print("\n".join(out))


main()

"""Jacobs, Jordan, Nowlan & Hinton (1991), *Adaptive mixtures of local experts*.

- :mod:`~moetheory.jacobs.losses`: the error functions (eqs. 1.1-1.3) and their gradients
  (eqs. 1.4, 1.5), in SymPy and vectorised NumPy;
- :mod:`~moetheory.jacobs.batched`: many mixtures trained at once, deterministically;
- :mod:`~moetheory.jacobs.training`: gradient training of a mixture of experts;
- :mod:`~moetheory.jacobs.vowel`: the multi-speaker vowel task and its stand-in data.

The modules are imported on use; importing this package imports none of them.
"""

"""Checks of Jacobs, Jordan, Nowlan & Hinton (1991), *Adaptive Mixtures of Local Experts*, as
summarised by the review of seed 001."""

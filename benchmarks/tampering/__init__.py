"""The tampering benchmark's machinery (``python -m benchmarks tamper``, issue 46): honest base
matches (:mod:`.bases`), how a seat forges its own feed (:mod:`.forging`), the tampering classes
(:mod:`.mutators`), how a verdict is judged (:mod:`.classify`); deterministic sealing of
deliveries (:mod:`.sealing`), which the conformance vectors share."""

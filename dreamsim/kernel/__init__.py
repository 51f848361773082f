"""The Midnighters batch kernel (numba): play_batch.py its Python side and `KERNEL`, core.py and the others compiled."""

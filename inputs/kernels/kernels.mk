# kernels.mk -- regenerate the bundled PTX in inputs/kernels/ from the CUDA
# sources.  Included by the top-level Makefile (paths are relative to the
# repository top); also usable standalone:
#
#     make -f inputs/kernels/kernels.mk            # same as 'kernels'
#     make -f inputs/kernels/kernels.mk kernels
#     make kernels NVCC=/usr/local/cuda/bin/nvcc KERNEL_ARCH=sm_80
#
# Without nvcc on PATH the target prints a note and leaves the committed PTX
# alone.  A .ptx is rebuilt when its .cu is newer; use 'make -B kernels' to
# force regeneration of all of them.  After regenerating, refresh the
# 'regs =' lines of the *.spec files from 'ptxas -v' (see VERSIONS.txt).

NVCC ?= nvcc
KERNEL_ARCH ?= sm_75
KERNEL_NVCCFLAGS ?= -O3

KERNELS_DIR := inputs/kernels
KERNELS_CU  := $(wildcard $(KERNELS_DIR)/*.cu)
KERNELS_PTX := $(KERNELS_CU:.cu=.ptx)
KERNELS_HAVE_NVCC := $(shell command -v $(NVCC) 2>/dev/null)

# Do not steal the including Makefile's default goal: remember it here.
kernels_saved_goal := $(.DEFAULT_GOAL)

.PHONY: kernels

ifeq ($(KERNELS_HAVE_NVCC),)
kernels:
	@echo "kernels: '$(NVCC)' not found on PATH; keeping the bundled PTX in $(KERNELS_DIR)/"
else
kernels: $(KERNELS_PTX)

$(KERNELS_DIR)/%.ptx: $(KERNELS_DIR)/%.cu
	$(NVCC) -ptx -arch=$(KERNEL_ARCH) $(KERNEL_NVCCFLAGS) $< -o $@
endif

# Standalone (this is the only makefile read): default to 'kernels'.
# Included: restore whatever the includer had, or restart goal selection so
# the includer's next target becomes the default.
ifeq ($(firstword $(MAKEFILE_LIST)),$(lastword $(MAKEFILE_LIST)))
.DEFAULT_GOAL := kernels
else
.DEFAULT_GOAL := $(kernels_saved_goal)
endif

//! Code-object loaders (HSA code object v4, legacy amdgcn-- relocatable objects).
